/**
 * The privacy-jobs runner (issue 33, domain/privacy/jobs.ts): steps in PRIVACY_STEPS order, a step
 * that crashed half-way run again and its counts still right, a yield near the timeout queuing the
 * next slice, the erasure's kept report naming nobody, an export's README and file name.
 */
import { describe, expect, it } from 'vitest';
import { emptyPersonDataCounts, PRIVACY_STEPS, privacyMessages, type PersonDataCounts, type PrivacyStep } from '../../../src/contract/privacy.js';
import type { PrivacyJob } from '../../../src/contract/jobs.js';
import { exportFileName, privacyJobRunner, type ExportFile } from '../../../src/domain/privacy/jobs.js';
import type { PersonDataPart, PersonKey, PrivacyJobs, RememberedKind, StepContext, StoredPrivacyJob } from '../../../src/domain/privacy/ports.js';
import type { StoredActivity } from '../../../src/domain/team/ports.js';

const person: PersonKey = { accountId: 'acc', contactId: 'c1', e164: '+34612345678', waId: '34612345678' };

/** The job store as the adapter behaves (one item per job), in memory. */
class MemoryJobs implements PrivacyJobs {
  readonly items = new Map<string, StoredPrivacyJob & { remembered: Record<RememberedKind, Set<string>>; personHash: string | null }>();
  constructor(job: StoredPrivacyJob) {
    this.add(job);
  }
  /** A job of the account; like the adapter's `personHash`, who it is about outlives `person` on an export. */
  add(job: StoredPrivacyJob, about: PersonKey | null = job.person) {
    this.items.set(job.id, { ...job, remembered: { conversation: new Set(), call: new Set(), booking: new Set() }, personHash: about ? hashOf(about) : null });
  }
  private job(id: string) {
    return this.items.get(id)!;
  }
  start(): never {
    throw new Error('not used');
  }
  async get(_a: string, id: string) {
    const j = this.items.get(id);
    return j ? structuredClone({ ...j, remembered: undefined, personHash: undefined }) : null;
  }
  async page(): Promise<never> {
    throw new Error('not used');
  }
  async stepStarted(_a: string, id: string, step: PrivacyStep) {
    Object.assign(this.job(id), { status: 'running', currentStep: step, items: 0 });
  }
  async progress(_a: string, id: string, items: number) {
    this.job(id).items = items;
  }
  async stepFinished(_a: string, id: string, step: PrivacyStep, counts: Partial<PersonDataCounts>) {
    const j = this.job(id);
    if (j.stepsDone.includes(step)) return;
    j.stepsDone.push(step);
    for (const [k, v] of Object.entries(counts)) j.counts[k as keyof PersonDataCounts] += v ?? 0;
    if (j.unfinished) delete j.unfinished[step];
  }
  async stepUnfinished(_a: string, id: string, step: PrivacyStep, record: { baseline: Partial<PersonDataCounts>; partial: Partial<PersonDataCounts> }) {
    const j = this.job(id);
    j.unfinished = { ...j.unfinished, [step]: structuredClone(record) };
  }
  async restart(_a: string, id: string) {
    Object.assign(this.job(id), { stepsDone: [], counts: emptyPersonDataCounts(), items: 0, unfinished: undefined });
  }
  async finish(_a: string, id: string, outcome: { status: 'done' | 'failed'; failure?: string; file?: StoredPrivacyJob['file'] }) {
    const j = this.job(id);
    if (j.status === 'done' || j.status === 'failed') return;
    Object.assign(j, { status: outcome.status, failure: outcome.failure ?? null, file: outcome.file ?? null, finishedAt: 'now', currentStep: null, person: null, unfinished: undefined });
    if (j.kind === 'erasure') Object.assign(j, { personLabel: null, personHash: null, remembered: { conversation: new Set(), call: new Set(), booking: new Set() } });
  }
  async remember(_a: string, id: string, kind: RememberedKind, ids: readonly string[]) {
    for (const i of ids) this.job(id).remembered[kind].add(i);
  }
  async remembered(_a: string, id: string, kind: RememberedKind) {
    return [...this.job(id).remembered[kind]];
  }
  async ofPerson(_a: string, who: PersonKey) {
    return [...this.items.values()].filter((j) => j.personHash === hashOf(who)).map((j) => structuredClone({ ...j, remembered: undefined, personHash: undefined }));
  }
  async remove(_a: string, id: string) {
    this.items.delete(id);
  }
  async forgetPerson(_a: string, id: string) {
    const j = this.items.get(id);
    if (j) Object.assign(j, { person: null, personLabel: null, personHash: null });
  }
}
const hashOf = (who: PersonKey) => who.e164 ?? `contact:${who.contactId}`;

const newJob = (kind: 'erasure' | 'export'): StoredPrivacyJob => ({
  id: 'JOB1',
  accountId: 'acc',
  kind,
  status: 'queued',
  person,
  personLabel: 'Ana López',
  stepsDone: [],
  currentStep: null,
  items: 0,
  counts: emptyPersonDataCounts(),
  requestedBy: { id: 'owner', name: 'Owner', kind: 'member' },
  createdAt: '2026-11-28T10:00:00.000Z',
  updatedAt: '2026-11-28T10:00:00.000Z',
  finishedAt: null,
  failure: null,
  file: null,
});

/** A part holding `n` items of `kind`, deleted one by one (idempotent: what is gone stays gone). */
function fakePart(step: PrivacyStep, kind: keyof PersonDataCounts, n: number, log: string[], opts: { crashAfter?: number; yieldAfter?: number } = {}) {
  let held = n;
  let crashes = opts.crashAfter === undefined ? 0 : 1;
  const part: PersonDataPart & { held: () => number } = {
    step,
    held: () => held,
    async count() {
      return { [kind]: held };
    },
    async erase(_p: PersonKey, ctx: StepContext) {
      log.push(`erase:${step}`);
      let deleted = 0;
      await ctx.remember('conversation', [`${step}-conv`]);
      while (held > 0) {
        if (crashes > 0 && deleted === opts.crashAfter) {
          crashes--;
          throw new Error(`${step} crashed half-way`);
        }
        if (opts.yieldAfter !== undefined && deleted === opts.yieldAfter) {
          // Time passes in the middle of the step (the test's deadline is 50 ms away).
          await new Promise((r) => setTimeout(r, 80));
          if (ctx.shouldYield()) return { counts: { [kind]: deleted }, done: false };
        }
        held--;
        deleted++;
        await ctx.progress(deleted);
      }
      return { counts: { [kind]: deleted }, done: true };
    },
    async export(_p, out) {
      log.push(`export:${step}`);
      await out.json(`${step}/${step}.json`, { n: held });
      await out.csv(`${step}/${step}.csv`, [['a', 'b'], [1, null]]);
      return { counts: { [kind]: held }, done: true };
    },
  };
  return part;
}

function harness(kind: 'erasure' | 'export', parts: PersonDataPart[], opts: { sliceMs?: number } = {}) {
  const jobs = new MemoryJobs(newJob(kind));
  const queued: PrivacyJob[] = [];
  const activity: Omit<StoredActivity, 'id' | 'at'>[] = [];
  const files: Record<string, string> = {};
  const deletedExports: string[] = [];
  let closed = false;
  const runner = privacyJobRunner({
    jobs,
    parts,
    queue: { send: async (job) => void queued.push(job) },
    openExport: async (): Promise<ExportFile> => ({
      json: async (path, value) => void (files[path] = JSON.stringify(value)),
      text: async (path, text) => void (files[path] = text),
      csv: async (path, rows) => void (files[path] = rows.map((r) => r.join(';')).join('\n')),
      object: async (path) => void (files[path] = 'object'),
      stream: async (path) => void (files[path] = 'stream'),
      close: async () => ((closed = true), { bytes: 1234 }),
      abort: async () => undefined,
    }),
    deleteExport: async (key) => void deletedExports.push(key),
    activity: { append: async (_a, entry) => (activity.push(entry), { ...entry, id: 'x', at: 'now' }) },
    language: async () => 'es',
    sliceMs: opts.sliceMs ?? 60_000,
    now: () => new Date('2026-11-28T12:00:00Z'),
    progressEveryMs: 0,
  });
  const message = { kind: 'person' as const, accountId: 'acc', jobId: 'JOB1' };
  return { jobs, queued, activity, files, deletedExports, runner, message, closed: () => closed };
}

describe('the privacy job runner', () => {
  it('erases step by step in PRIVACY_STEPS order, logs the counts by the requester, and keeps a report with no personal data', async () => {
    const log: string[] = [];
    // Registered out of order: the runner still walks calls → … → contact.
    const parts = [fakePart('contact', 'contacts', 1, log), fakePart('conversations', 'messages', 7, log), fakePart('calls', 'calls', 3, log), fakePart('bookings', 'bookings', 2, log)];
    const h = harness('erasure', parts);
    await h.runner.run(h.message, Date.now());
    expect(log).toEqual(['erase:calls', 'erase:conversations', 'erase:bookings', 'erase:contact']);
    const job = h.jobs.items.get('JOB1')!;
    expect(job.stepsDone).toEqual([...PRIVACY_STEPS]);
    expect(job.status).toBe('done');
    expect(job.counts).toEqual({ ...emptyPersonDataCounts(), calls: 3, messages: 7, bookings: 2, contacts: 1 });
    // The kept report: no person, no label, no remembered ids.
    expect(job.person).toBeNull();
    expect(job.personLabel).toBeNull();
    expect([...job.remembered.conversation]).toEqual([]);
    expect(JSON.stringify(job)).not.toMatch(/Ana|612345678|c1/);
    expect(h.activity).toEqual([
      { action: 'person.erased', actor: { kind: 'member', id: 'owner' }, object: { type: 'privacyJob', id: 'JOB1' }, details: { ...emptyPersonDataCounts(), calls: 3, messages: 7, bookings: 2, contacts: 1 } },
    ]);
    expect(h.queued).toEqual([]);
    // A redelivery of the finished job does nothing.
    await h.runner.run(h.message, Date.now());
    expect(h.activity).toHaveLength(1);
  });

  it('a step that crashes half-way is run again by the retry, which finishes it; the counts are what was erased in all', async () => {
    const log: string[] = [];
    const conversations = fakePart('conversations', 'messages', 10, log, { crashAfter: 4 });
    const parts = [fakePart('calls', 'calls', 2, log), conversations, fakePart('contact', 'contacts', 1, log)];
    const h = harness('erasure', parts);
    await expect(h.runner.run(h.message, Date.now())).rejects.toThrow('crashed half-way');
    const mid = h.jobs.items.get('JOB1')!;
    expect(mid.stepsDone).toEqual(['calls']);
    expect(mid.currentStep).toBe('conversations');
    expect(mid.status).toBe('running');
    expect(conversations.held()).toBe(6);
    // The queue redelivers: the calls are not erased again, the conversations finish.
    await h.runner.run(h.message, Date.now());
    expect(log).toEqual(['erase:calls', 'erase:conversations', 'erase:conversations', 'erase:contact']);
    const job = h.jobs.items.get('JOB1')!;
    expect(job.status).toBe('done');
    expect(conversations.held()).toBe(0);
    expect(job.counts).toEqual({ ...emptyPersonDataCounts(), calls: 2, messages: 10, contacts: 1 });
    expect(h.activity[0]!.details).toMatchObject({ calls: 2, messages: 10, contacts: 1 });
  });

  it('yields near the timeout: the step stops, the job queues itself with resume, and the next slice finishes with the right counts', async () => {
    const log: string[] = [];
    const conversations = fakePart('conversations', 'messages', 10, log, { yieldAfter: 6 });
    const h = harness('erasure', [fakePart('calls', 'calls', 1, log), conversations], { sliceMs: 0 });
    // The deadline 50 ms from now: calls and the start of the conversations run before it, then the step yields after 6.
    await h.runner.run(h.message, Date.now() + 50);
    expect(h.queued).toEqual([{ kind: 'person', accountId: 'acc', jobId: 'JOB1', resume: 1 }]);
    const mid = h.jobs.items.get('JOB1')!;
    expect(mid.status).toBe('running');
    expect(mid.stepsDone).toEqual(['calls']);
    expect(conversations.held()).toBe(4);
    expect(h.activity).toEqual([]);
    // The next slice (plenty of time): the rest of the step, then done.
    await h.runner.run({ ...h.message, resume: 1 }, Date.now() + 600_000);
    const job = h.jobs.items.get('JOB1')!;
    expect(job.status).toBe('done');
    expect(job.counts).toMatchObject({ calls: 1, messages: 10 });
  });

  it('a job that fails on its last try is marked failed with the reason, its person removed', async () => {
    const log: string[] = [];
    const h = harness('erasure', [fakePart('calls', 'calls', 5, log, { crashAfter: 1 })]);
    await expect(h.runner.run(h.message, Date.now())).rejects.toThrow();
    await h.runner.fail(h.message);
    const job = h.jobs.items.get('JOB1')!;
    expect([job.status, job.failure, job.person]).toEqual(['failed', privacyMessages.jobFailed, null]);
    // Failed stays failed: a late redelivery does not run it.
    await h.runner.run(h.message, Date.now());
    expect(log).toEqual(['erase:calls']);
  });

  it('an export writes each part and a README in the account language, closes the ZIP and records its file', async () => {
    const log: string[] = [];
    const h = harness('export', [fakePart('calls', 'calls', 2, log), fakePart('contact', 'contacts', 1, log)]);
    await h.runner.run(h.message, Date.now());
    expect(h.closed()).toBe(true);
    expect(Object.keys(h.files).sort()).toEqual(['README.txt', 'calls/calls.csv', 'calls/calls.json', 'contact/contact.csv', 'contact/contact.json']);
    expect(h.files['README.txt']).toContain('Exportación de datos personales');
    expect(h.files['README.txt']).toContain('calls/calls.csv: lo mismo en forma de tabla');
    expect(h.files['README.txt']).toContain('Ana López');
    const job = h.jobs.items.get('JOB1')!;
    expect(job.status).toBe('done');
    expect(job.file).toEqual({ key: 'tmp/privacy-exports/acc/JOB1.zip', bytes: 1234, fileName: 'datos-ana-lopez-2026-11-28.zip', expiresAt: '2026-11-29T12:00:00.000Z' });
    expect(h.activity[0]).toMatchObject({ action: 'person.exported', details: { calls: 2, contacts: 1 } });
  });

  it("an erasure's end removes the person's earlier exports (item and ZIP) and the person from their other jobs, not another person's; a retry does it again harmlessly", async () => {
    const log: string[] = [];
    const h = harness('erasure', [fakePart('calls', 'calls', 1, log)]);
    const other: PersonKey = { accountId: 'acc', contactId: 'c2', e164: '+34699000111', waId: '34699000111' };
    const done = { status: 'done' as const, finishedAt: 'then', file: { key: 'tmp/privacy-exports/acc/EXP1.zip', bytes: 10, fileName: 'datos-ana-lopez.zip', expiresAt: '2026-11-29T10:00:00.000Z' } };
    // Her export done yesterday (its item no longer has `person`, only the label and the hash), one queued now, a failed erasure by her contact id.
    h.jobs.add({ ...newJob('export'), id: 'EXP1', person: null, ...done }, person);
    h.jobs.add({ ...newJob('export'), id: 'EXP2' });
    h.jobs.add({ ...newJob('erasure'), id: 'ERA0', status: 'failed' });
    // Another patient's export.
    h.jobs.add({ ...newJob('export'), id: 'EXP3', person: null, personLabel: 'Luis Pérez', ...done, file: { ...done.file, key: 'tmp/privacy-exports/acc/EXP3.zip' } }, other);
    await h.runner.run(h.message, Date.now());
    expect([...h.jobs.items.keys()].sort()).toEqual(['ERA0', 'EXP3', 'JOB1']);
    expect(h.deletedExports.sort()).toEqual(['tmp/privacy-exports/acc/EXP1.zip', 'tmp/privacy-exports/acc/EXP2.zip']);
    expect(h.jobs.items.get('ERA0')).toMatchObject({ person: null, personLabel: null, personHash: null });
    expect(h.jobs.items.get('EXP3')).toMatchObject({ personLabel: 'Luis Pérez', personHash: '+34699000111', status: 'done' });
    expect(h.jobs.items.get('JOB1')).toMatchObject({ status: 'done', person: null, personLabel: null, personHash: null });

    // A crash after the ZIP's delete and before the item's: the retry finds the item and deletes both again.
    const retry = harness('erasure', [fakePart('calls', 'calls', 1, log)]);
    retry.jobs.add({ ...newJob('export'), id: 'EXP1', person: null, ...done }, person);
    const remove = retry.jobs.remove.bind(retry.jobs);
    let crashes = 1;
    retry.jobs.remove = async (...args) => {
      if (crashes-- > 0) throw new Error('the function died half-way');
      return remove(...args);
    };
    await expect(retry.runner.run(retry.message, Date.now())).rejects.toThrow('died');
    expect([...retry.jobs.items.keys()].sort()).toEqual(['EXP1', 'JOB1']);
    await retry.runner.run(retry.message, Date.now());
    expect([...retry.jobs.items.keys()]).toEqual(['JOB1']);
    expect(retry.jobs.items.get('JOB1')!.status).toBe('done');
    expect(retry.deletedExports).toEqual(['tmp/privacy-exports/acc/EXP1.zip', 'tmp/privacy-exports/acc/EXP1.zip']);
  });

  it('names the export file after the person in ASCII', () => {
    const at = new Date('2026-11-28T00:00:00Z');
    expect(exportFileName('Ana López', 'es', at)).toBe('datos-ana-lopez-2026-11-28.zip');
    expect(exportFileName('José Ñúñez-García', 'en', at)).toBe('data-jose-nunez-garcia-2026-11-28.zip');
    expect(exportFileName('+34 612345678', 'es', at)).toBe('datos-34-612345678-2026-11-28.zip');
    expect(exportFileName('', 'es', at)).toBe('datos-2026-11-28.zip');
  });
});
