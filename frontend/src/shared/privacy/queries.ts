/** A privacy job followed while it runs (GET /api/privacy/jobs/{id} every 1.5 s until done or failed). */
import { useQuery } from '@tanstack/react-query';
import type { PrivacyJobView } from '@agentdesk/functions/contract';
import { privacyApi, privacyKeys } from '../../api/privacy';

export const JOB_POLL_MS = 1500;

export const isActiveJob = (job: Pick<PrivacyJobView, 'status'> | undefined): boolean => !job || job.status === 'queued' || job.status === 'running';

/** The job, polled while it is queued or running; `initial` (a list's row, a 202's answer) shows at once. */
export function usePrivacyJob(id: string | null, initial?: PrivacyJobView) {
  return useQuery({
    queryKey: privacyKeys.job(id ?? ''),
    queryFn: ({ signal }) => privacyApi.job(id ?? '', signal),
    enabled: Boolean(id),
    initialData: initial,
    // A list row that is already done is not fetched again until asked.
    staleTime: initial && !isActiveJob(initial) ? Infinity : 0,
    refetchInterval: (query) => (isActiveJob(query.state.data) ? JOB_POLL_MS : false),
  });
}
