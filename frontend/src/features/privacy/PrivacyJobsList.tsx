/**
 * The recent erasures and exports (issue 33; GET /api/privacy/jobs, a page at a time by cursor),
 * newest first: what, about whom while it runs (an erasure's finished report names nobody), by
 * whom and when, and each one's progress (polled while it runs), counts and Download.
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PrivacyJobStatus as JobStatus, PrivacyJobView } from '@agentdesk/functions/contract';
import { privacyApi, privacyKeys } from '../../api/privacy';
import { errorMessage } from '../../i18n';
import { formatDate } from '../../shared/intl';
import { RetryAlert } from '../../shared/RetryAlert';
import { PrivacyJobStatus } from '../../shared/privacy/PrivacyJobStatus';
import { usePrivacyJob } from '../../shared/privacy/queries';

const STATUS_COLOR: Record<JobStatus, ChipProps['color']> = { queued: 'default', running: 'info', done: 'success', failed: 'error' };

function JobRow({ initial }: { initial: PrivacyJobView }) {
  const { t, i18n } = useTranslation();
  const job = usePrivacyJob(initial._id, initial).data ?? initial;
  const who = job.person?.label ?? (job.kind === 'erasure' && job.status === 'done' ? t('privacy.jobs.anonymous') : null);
  return (
    <ListItem divider data-testid="privacy-job" data-status={job.status} sx={{ display: 'block', py: 2 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5, mb: 1 }}>
        <Typography sx={{ fontWeight: 600 }}>{t(`privacy.jobs.kinds.${job.kind}`)}</Typography>
        {who && <Typography sx={{ overflowWrap: 'anywhere' }}>· {who}</Typography>}
        <Chip size="small" color={STATUS_COLOR[job.status]} variant="outlined" label={t(`privacy.jobs.statuses.${job.status}`)} />
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {formatDate(i18n.language, job.createdAt) ?? ''}
        {job.requestedBy ? ` · ${t('privacy.jobs.requestedBy', { name: job.requestedBy.name })}` : ''}
      </Typography>
      <PrivacyJobStatus job={job} />
    </ListItem>
  );
}

export function PrivacyJobsList() {
  const { t } = useTranslation();
  const jobs = useInfiniteQuery({
    queryKey: privacyKeys.jobs,
    queryFn: ({ pageParam, signal }) => privacyApi.jobs(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor ?? undefined,
  });
  const rows = jobs.data?.pages.flatMap((page) => page.jobs) ?? [];

  let body: ReactNode;
  if (jobs.isPending) body = <Skeleton variant="rounded" height={120} role="status" aria-busy="true" aria-label={t('privacy.jobs.loading')} />;
  else if (jobs.isError)
    body = (
      <RetryAlert retryLabel={t('privacy.retry')} onRetry={() => void jobs.refetch()} retrying={jobs.isFetching}>
        {errorMessage(jobs.error, t('privacy.jobs.loadFailed'))}
      </RetryAlert>
    );
  else if (rows.length === 0) body = <Typography color="text.secondary">{t('privacy.jobs.empty')}</Typography>;
  else
    body = (
      <>
        <Paper variant="outlined">
          <List disablePadding aria-label={t('privacy.jobs.heading')}>
            {rows.map((job) => (
              <JobRow key={job._id} initial={job} />
            ))}
          </List>
        </Paper>
        {jobs.hasNextPage && (
          <Box sx={{ textAlign: 'center', mt: 2 }}>
            <Button variant="outlined" onClick={() => void jobs.fetchNextPage()} disabled={jobs.isFetchingNextPage}>
              {jobs.isFetchingNextPage ? t('privacy.jobs.loadingMore') : t('privacy.jobs.loadMore')}
            </Button>
          </Box>
        )}
      </>
    );
  return body;
}
