/**
 * A person's data under the owner's control (issue 33), the API half: what is held about one
 * person (the parts' counts), and their erasure or export started as a background job (one per
 * kind and person at a time: a second request, or two at once, answers the running one). The
 * worker half is jobs.ts.
 */
import {
  EXPORT_LINK_MINUTES,
  PERSON_DATA_KINDS,
  PRIVACY_JOBS_PAGE_SIZE,
  PRIVACY_STEPS,
  emptyPersonDataCounts,
  privacyMessages,
  type PersonDataCounts,
  type PersonDataInventory,
  type PersonRefRequest,
  type PrivacyJobKind,
  type PrivacyJobPage,
  type PrivacyJobView,
} from '../../contract/privacy.js';
import type { PrivacyJob } from '../../contract/jobs.js';
import { isId } from '../../lib/ids.js';
import { NotFoundError } from '../errors.js';
import { resolvePerson, type PersonResolverDeps, type ResolvedPerson } from './person.js';
import type { PersonDataPart, PrivacyJobs, StoredPrivacyJob } from './ports.js';

export type RequestActor = { kind: 'member'; id: string } | { kind: 'apiKey'; id: string };

export interface PrivacyServiceDeps extends PersonResolverDeps {
  parts: readonly PersonDataPart[];
  jobs: PrivacyJobs;
  queue: { send(job: PrivacyJob): Promise<void> };
  /** A member's or an API key's name (who asked, on the job). */
  actorName(accountId: string, actor: RequestActor): Promise<string>;
  /** A short-lived download link of an export's ZIP. */
  downloadUrl(key: string, fileName: string, expiresInSeconds: number): Promise<string>;
  now?: () => Date;
}

export interface PrivacyApi {
  lookup(accountId: string, person: PersonRefRequest): Promise<PersonDataInventory>;
  erase(accountId: string, actor: RequestActor, person: PersonRefRequest): Promise<PrivacyJobView>;
  export(accountId: string, actor: RequestActor, person: PersonRefRequest): Promise<PrivacyJobView>;
  jobs(accountId: string, cursor: string | null): Promise<PrivacyJobPage>;
  job(accountId: string, jobId: string): Promise<PrivacyJobView>;
}

export function createPrivacyService(deps: PrivacyServiceDeps): PrivacyApi {
  const now = deps.now ?? (() => new Date());

  async function inventory(resolved: ResolvedPerson): Promise<PersonDataInventory> {
    const counts = emptyPersonDataCounts();
    const active = { conversation: false, call: false };
    const results = await Promise.all(deps.parts.map(async (part) => [await part.count(resolved.key), part.active ? await part.active(resolved.key) : {}] as const));
    for (const [partCounts, partActive] of results) {
      for (const kind of PERSON_DATA_KINDS) counts[kind] += partCounts[kind] ?? 0;
      active.conversation ||= !!partActive.conversation;
      active.call ||= !!partActive.call;
    }
    return { person: { contactId: resolved.key.contactId, name: resolved.name, phoneNumber: resolved.key.e164 }, counts, active };
  }

  const total = (counts: PersonDataCounts) => PERSON_DATA_KINDS.reduce((n, kind) => n + counts[kind], 0);

  async function start(accountId: string, actor: RequestActor, ref: PersonRefRequest, kind: PrivacyJobKind): Promise<PrivacyJobView> {
    const resolved = await resolvePerson(deps, accountId, ref);
    const held = await inventory(resolved);
    if (total(held.counts) === 0) throw new NotFoundError(privacyMessages.personNotFound);
    const at = now().toISOString();
    const { job, created } = await deps.jobs.start({
      id: '',
      accountId,
      kind,
      person: resolved.key,
      personLabel: resolved.label,
      requestedBy: { id: actor.id, name: await deps.actorName(accountId, actor), kind: actor.kind },
      createdAt: at,
    });
    if (created) {
      try {
        await deps.queue.send({ kind: 'person', accountId, jobId: job.id });
      } catch (error) {
        // Never a job that nothing will run (its lock would refuse the next request).
        await deps.jobs.finish(accountId, job.id, { status: 'failed', failure: privacyMessages.jobFailed }).catch(() => undefined);
        throw error;
      }
    }
    return view(job);
  }

  async function view(job: StoredPrivacyJob): Promise<PrivacyJobView> {
    return {
      _id: job.id,
      kind: job.kind,
      status: job.status,
      person: job.personLabel && !(job.kind === 'erasure' && job.status === 'done') ? { label: job.personLabel } : null,
      progress: { stepsDone: job.stepsDone.length, stepsTotal: PRIVACY_STEPS.length, step: job.status === 'running' ? job.currentStep : null, items: job.items },
      counts: job.counts,
      requestedBy: job.requestedBy ? { _id: job.requestedBy.id, name: job.requestedBy.name } : null,
      createdAt: job.createdAt,
      finishedAt: job.finishedAt,
      failure: job.failure,
      download: await download(job),
    };
  }

  async function download(job: StoredPrivacyJob): Promise<PrivacyJobView['download']> {
    if (job.kind !== 'export' || job.status !== 'done' || !job.file) return null;
    const nowMs = now().getTime();
    const fileEnds = Date.parse(job.file.expiresAt);
    if (!(fileEnds > nowMs)) return null;
    // The link never outlives the file.
    const seconds = Math.max(1, Math.min(EXPORT_LINK_MINUTES * 60, Math.floor((fileEnds - nowMs) / 1000)));
    const url = await deps.downloadUrl(job.file.key, job.file.fileName, seconds);
    return { url, expiresAt: new Date(nowMs + seconds * 1000).toISOString(), fileName: job.file.fileName, bytes: job.file.bytes };
  }

  return {
    async lookup(accountId, ref) {
      return inventory(await resolvePerson(deps, accountId, ref));
    },
    erase: (accountId, actor, ref) => start(accountId, actor, ref, 'erasure'),
    export: (accountId, actor, ref) => start(accountId, actor, ref, 'export'),
    async jobs(accountId, cursor) {
      const page = await deps.jobs.page(accountId, cursor, PRIVACY_JOBS_PAGE_SIZE);
      return { jobs: await Promise.all(page.jobs.map(view)), cursor: page.cursor };
    },
    async job(accountId, jobId) {
      const job = isId(jobId) ? await deps.jobs.get(accountId, jobId) : null;
      if (!job) throw new NotFoundError(privacyMessages.jobNotFound);
      return view(job);
    },
  };
}
