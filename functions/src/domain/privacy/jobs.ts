/**
 * The privacy-jobs worker's half of a person's erasure or export (issue 33). A job walks the
 * person's data parts in PRIVACY_STEPS order; each finished step is recorded on the job item, so a
 * retry after a crash (the queue redelivers) or the next slice after a yield goes on from the
 * first unfinished one, and each part's erase is idempotent (a step begun again deletes what is left).
 *
 * Counts stay right across a crash: before a step first runs, what its part holds is kept as the
 * step's baseline; a finished step reports, per kind, the larger of what its runs deleted and that
 * baseline (a run that crashed half-way reported nothing, but what it deleted was in the baseline).
 *
 * An erasure's finished job keeps no personal data (who it was about is removed from the item);
 * its counts go to the activity log. Its end also removes what the person's other jobs hold of
 * them: their earlier exports (the item and its ZIP) and the person on any other job. An export cannot be resumed (a streamed ZIP): a retry starts it
 * again, and it runs within one invocation.
 */
import {
  EXPORT_KEEP_HOURS,
  PERSON_DATA_KINDS,
  PRIVACY_STEPS,
  emptyPersonDataCounts,
  privacyMessages,
  type PersonDataCounts,
  type PrivacyStep,
} from '../../contract/privacy.js';
import type { PrivacyJob } from '../../contract/jobs.js';
import type { ActivityLog, StoredActivity } from '../team/ports.js';
import type { ExportWriter, PersonDataPart, PersonKey, PrivacyJobs, StepContext, StoredPrivacyJob } from './ports.js';
import { exportReadme, type ExportLanguage } from './readme.js';

/** An export's ZIP being written: the parts' writer, then closed (its size) or abandoned. */
export interface ExportFile extends ExportWriter {
  close(): Promise<{ bytes: number }>;
  abort(): Promise<void>;
}

export interface PrivacyRunnerDeps {
  jobs: PrivacyJobs;
  parts: readonly PersonDataPart[];
  /** Queues the job's next slice. */
  queue: { send(job: PrivacyJob): Promise<void> };
  /** Opens the export's ZIP at `key` (uploads bucket). */
  openExport(key: string): Promise<ExportFile>;
  /** Deletes an export's ZIP (absent already: nothing to do). */
  deleteExport(key: string): Promise<void>;
  activity: Pick<ActivityLog, 'append'>;
  /** The account's language (the export's README). */
  language(accountId: string): Promise<ExportLanguage>;
  /** Milliseconds of work per invocation before the job yields (the function's timeout minus a margin). */
  sliceMs: number;
  now?: () => Date;
  /** Progress is written at most this often (ms). */
  progressEveryMs?: number;
}

/** Where an export's ZIP goes (an expiring prefix of the uploads bucket: the lifecycle deletes it after a day). */
export const PRIVACY_EXPORTS_PREFIX = 'tmp/privacy-exports/';
export const exportKey = (accountId: string, jobId: string) => `${PRIVACY_EXPORTS_PREFIX}${accountId}/${jobId}.zip`;

const add = (into: PersonDataCounts, counts: Partial<PersonDataCounts>) => {
  for (const kind of PERSON_DATA_KINDS) into[kind] += counts[kind] ?? 0;
  return into;
};
const sum = (a: Partial<PersonDataCounts>, b: Partial<PersonDataCounts>): Partial<PersonDataCounts> => {
  const out: Partial<PersonDataCounts> = {};
  for (const kind of PERSON_DATA_KINDS) if (a[kind] !== undefined || b[kind] !== undefined) out[kind] = (a[kind] ?? 0) + (b[kind] ?? 0);
  return out;
};
const atLeast = (counts: Partial<PersonDataCounts>, floor: Partial<PersonDataCounts>): Partial<PersonDataCounts> => {
  const out: Partial<PersonDataCounts> = { ...counts };
  for (const kind of PERSON_DATA_KINDS) if ((floor[kind] ?? 0) > (out[kind] ?? 0)) out[kind] = floor[kind];
  return out;
};
const actorOf = (job: StoredPrivacyJob): StoredActivity['actor'] =>
  job.requestedBy ? { kind: job.requestedBy.kind ?? 'member', id: job.requestedBy.id } : { kind: 'system' };

/** A job that ran out of tries: marked failed (the lock released), never left running. */
export class PrivacyJobFailed extends Error {}

export function privacyJobRunner(deps: PrivacyRunnerDeps) {
  const now = deps.now ?? (() => new Date());
  const progressEveryMs = deps.progressEveryMs ?? 1000;

  function stepContext(job: StoredPrivacyJob, deadline: number, yieldAllowed: boolean): StepContext {
    let lastProgress = 0;
    return {
      jobId: job.id,
      now: now(),
      async progress(items) {
        const at = Date.now();
        if (at - lastProgress < progressEveryMs) return;
        lastProgress = at;
        await deps.jobs.progress(job.accountId, job.id, items);
      },
      shouldYield: () => yieldAllowed && Date.now() >= deadline,
      remember: (kind, ids) => (ids.length ? deps.jobs.remember(job.accountId, job.id, kind, ids) : Promise.resolve()),
      remembered: (kind) => deps.jobs.remembered(job.accountId, job.id, kind),
    };
  }

  /** Runs each step not done yet; false when it yielded (the next slice is queued). */
  async function walk(
    job: StoredPrivacyJob,
    person: PersonKey,
    message: PrivacyJob & { kind: 'person' },
    startedAtMs: number,
    work: (part: PersonDataPart, ctx: StepContext) => Promise<{ counts: Partial<PersonDataCounts>; done: boolean }>,
    yieldAllowed: boolean,
  ): Promise<PersonDataCounts | null> {
    const deadline = startedAtMs + deps.sliceMs;
    const totals = add(emptyPersonDataCounts(), job.counts);
    for (const step of PRIVACY_STEPS) {
      if (job.stepsDone.includes(step)) continue;
      if (yieldAllowed && Date.now() >= deadline) return requeue(message);
      const part = deps.parts.find((p) => p.step === step);
      await deps.jobs.stepStarted(job.accountId, job.id, step);
      if (!part) {
        await deps.jobs.stepFinished(job.accountId, job.id, step, {});
        continue;
      }
      const before = job.unfinished?.[step];
      const baseline = before?.baseline ?? (await part.count(person));
      const outcome = await work(part, stepContext(job, deadline, yieldAllowed));
      const partial = sum(before?.partial ?? {}, outcome.counts);
      if (!outcome.done) {
        await deps.jobs.stepUnfinished(job.accountId, job.id, step, { baseline, partial });
        return requeue(message);
      }
      const counts = atLeast(partial, baseline);
      await deps.jobs.stepFinished(job.accountId, job.id, step, counts);
      add(totals, counts);
    }
    return totals;
  }

  async function requeue(message: PrivacyJob & { kind: 'person' }): Promise<null> {
    await deps.queue.send({ kind: 'person', accountId: message.accountId, jobId: message.jobId, resume: (message.resume ?? 0) + 1 });
    return null;
  }

  async function erase(job: StoredPrivacyJob, person: PersonKey, message: PrivacyJob & { kind: 'person' }, startedAtMs: number) {
    if (!job.stepsDone.length && !job.unfinished) await primeBaselines(job, person);
    const totals = await walk(job, person, message, startedAtMs, (part, ctx) => part.erase(person, ctx), true);
    if (!totals) return;
    // Before finish: a crash in between leaves the job running, and its retry does this again.
    await forgetOtherJobs(job, person);
    // Logged first: a crash before finish repeats the entry rather than losing it.
    await deps.activity.append(job.accountId, { action: 'person.erased', actor: actorOf(job), object: { type: 'privacyJob', id: job.id }, details: { ...totals } });
    await deps.jobs.finish(job.accountId, job.id, { status: 'done' });
  }

  /**
   * The erased person's other jobs keep nothing of them: an export goes whole (its ZIP, then its
   * item, so a crash between leaves the item for the retry to find); any other job loses who it
   * was about. Each removal is idempotent.
   */
  async function forgetOtherJobs(job: StoredPrivacyJob, person: PersonKey) {
    for (const other of await deps.jobs.ofPerson(job.accountId, person)) {
      if (other.id === job.id) continue;
      if (other.kind === 'export') {
        await deps.deleteExport(exportKey(job.accountId, other.id));
        await deps.jobs.remove(job.accountId, other.id);
      } else {
        await deps.jobs.forgetPerson(job.accountId, other.id);
      }
    }
  }

  /**
   * Every step's baseline before anything is deleted: the calls step ends a live call and the
   * conversations step deletes messages the notifications step's count reads through.
   */
  async function primeBaselines(job: StoredPrivacyJob, person: PersonKey) {
    const unfinished: NonNullable<StoredPrivacyJob['unfinished']> = {};
    for (const part of deps.parts) {
      const baseline = await part.count(person);
      unfinished[part.step] = { baseline, partial: {} };
      await deps.jobs.stepUnfinished(job.accountId, job.id, part.step, { baseline, partial: {} });
    }
    job.unfinished = unfinished;
  }

  async function exportPerson(job: StoredPrivacyJob, person: PersonKey, message: PrivacyJob & { kind: 'person' }, startedAtMs: number) {
    if (job.stepsDone.length || job.items || job.unfinished) {
      await deps.jobs.restart(job.accountId, job.id);
      job = { ...job, stepsDone: [], items: 0, counts: emptyPersonDataCounts(), unfinished: undefined };
    }
    const key = exportKey(job.accountId, job.id);
    const language = await deps.language(job.accountId);
    const file = await deps.openExport(key);
    const written: { path: string; step: PrivacyStep }[] = [];
    let step: PrivacyStep = 'calls';
    const out = recording(file, (path) => written.push({ path, step }));
    let totals: PersonDataCounts | null;
    try {
      totals = await walk(
        job,
        person,
        message,
        startedAtMs,
        (part, ctx) => {
          step = part.step;
          return part.export(person, out, ctx);
        },
        false,
      );
      await file.text('README.txt', exportReadme(language, { label: job.personLabel ?? '', at: now(), files: written }));
    } catch (error) {
      await file.abort().catch(() => undefined);
      throw error;
    }
    const { bytes } = await file.close();
    const counts = totals ?? emptyPersonDataCounts();
    const expiresAt = new Date(now().getTime() + EXPORT_KEEP_HOURS * 3_600_000).toISOString();
    await deps.activity.append(job.accountId, { action: 'person.exported', actor: actorOf(job), object: { type: 'privacyJob', id: job.id }, details: { ...counts } });
    await deps.jobs.finish(job.accountId, job.id, { status: 'done', file: { key, bytes, fileName: exportFileName(job.personLabel ?? '', language, now()), expiresAt } });
  }

  return {
    /** One queue message of a person's job; `startedAtMs`: when the invocation began. */
    async run(message: PrivacyJob & { kind: 'person' }, startedAtMs = Date.now()): Promise<void> {
      const job = await deps.jobs.get(message.accountId, message.jobId);
      if (!job || job.status === 'done' || job.status === 'failed' || !job.person) return;
      if (job.kind === 'erasure') return erase(job, job.person, message, startedAtMs);
      return exportPerson(job, job.person, message, startedAtMs);
    },
    /** The job's last try failed (or it died on every try): failed for good, its lock released. */
    async fail(message: PrivacyJob & { kind: 'person' }): Promise<void> {
      const job = await deps.jobs.get(message.accountId, message.jobId);
      if (!job || job.status === 'done' || job.status === 'failed') return;
      await deps.jobs.finish(job.accountId, job.id, { status: 'failed', failure: privacyMessages.jobFailed });
    },
  };
}

export type PrivacyJobRunner = ReturnType<typeof privacyJobRunner>;

/** The writer handed to the parts, noting each file's path (the README lists them). */
function recording(file: ExportWriter, note: (path: string) => void): ExportWriter {
  return {
    json: (path, value) => (note(path), file.json(path, value)),
    text: (path, text) => (note(path), file.text(path, text)),
    csv: (path, rows) => (note(path), file.csv(path, rows)),
    object: (path, key) => (note(path), file.object(path, key)),
    stream: (path, body) => (note(path), file.stream(path, body)),
  };
}

/** `datos-ana-lopez-2026-11-28.zip`: the person's label as ASCII words, the day. */
export function exportFileName(label: string, language: ExportLanguage, at: Date): string {
  const slug = label
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `${language === 'es' ? 'datos' : 'data'}${slug ? `-${slug}` : ''}-${at.toISOString().slice(0, 10)}.zip`;
}
