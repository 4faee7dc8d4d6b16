/**
 * The API half of a person's lookup, erasure and export (issue 33, domain/privacy/service.ts):
 * counts summed over the parts, an erasure of nobody refused, a running job answered instead of a
 * second one (nothing queued twice), and the download link only for a done export whose file lives.
 */
import { describe, expect, it } from 'vitest';
import { emptyPersonDataCounts, EXPORT_LINK_MINUTES, privacyMessages, type PersonDataCounts } from '../../../src/contract/privacy.js';
import type { PrivacyJob } from '../../../src/contract/jobs.js';
import { createPrivacyService } from '../../../src/domain/privacy/service.js';
import type { PersonDataPart, PrivacyJobs, StoredPrivacyJob } from '../../../src/domain/privacy/ports.js';
import type { StoredContact } from '../../../src/domain/contacts/ports.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const JOB_ID = '01M8J8DJQ8FAEP4KYJDTQPN2Y7';

const part = (step: PersonDataPart['step'], counts: Partial<PersonDataCounts>, active: { conversation?: boolean; call?: boolean } = {}): PersonDataPart => ({
  step,
  count: async () => counts,
  active: async () => active,
  erase: async () => ({ counts: {}, done: true }),
  export: async () => ({ counts: {}, done: true }),
});

function setup(parts: PersonDataPart[], existing: StoredPrivacyJob | null = null) {
  const queued: PrivacyJob[] = [];
  const started: unknown[] = [];
  let stored: StoredPrivacyJob | null = existing;
  const jobs = {
    async start(input) {
      started.push(input);
      if (stored && (stored.status === 'queued' || stored.status === 'running')) return { job: stored, created: false };
      stored = { ...input, id: JOB_ID, status: 'queued', stepsDone: [], currentStep: null, items: 0, counts: emptyPersonDataCounts(), updatedAt: input.createdAt, finishedAt: null, failure: null, file: null };
      return { job: stored, created: true };
    },
    get: async (accountId: string, id: string) => (accountId === 'acc' && stored?.id === id ? stored : null),
    page: async () => ({ jobs: stored ? [stored] : [], cursor: null }),
  } as Partial<PrivacyJobs> as PrivacyJobs;
  const service = createPrivacyService({
    contacts: {
      get: async (_a, id) => (id === 'C1' ? ({ id: 'C1', name: 'Ana López', phoneNumber: '+34612345678', email: '' } as StoredContact) : null),
      phoneOwners: async () => new Map([['+34612345678', 'C1']]),
    },
    accountCountry: async () => 'ES',
    members: { list: async () => [] },
    parts,
    jobs,
    queue: { send: async (job) => void queued.push(job) },
    actorName: async () => 'Dra. Núñez',
    downloadUrl: async (key, fileName, seconds) => `https://s3.local/${key}?name=${fileName}&expires=${seconds}`,
    now: () => NOW,
  });
  return { service, queued, started, jobs, current: () => stored };
}

const actor = { kind: 'member' as const, id: 'owner' };

describe('the privacy service', () => {
  it('sums the parts counts and their live state', async () => {
    const { service } = setup([part('calls', { calls: 2, recordings: 1 }, { call: true }), part('conversations', { conversations: 1, messages: 40, media: 3 }), part('contact', { contacts: 1 })]);
    expect(await service.lookup('acc', { phoneNumber: '612 34 56 78' })).toEqual({
      person: { contactId: 'C1', name: 'Ana López', phoneNumber: '+34612345678' },
      counts: { ...emptyPersonDataCounts(), calls: 2, recordings: 1, conversations: 1, messages: 40, media: 3, contacts: 1 },
      active: { conversation: false, call: true },
    });
  });

  it('refuses to erase someone with nothing stored (404), nothing started or queued', async () => {
    const s = setup([part('calls', {}), part('contact', { contacts: 0 })]);
    await expect(s.service.erase('acc', actor, { phoneNumber: '699 00 11 22' })).rejects.toMatchObject({ status: 404, message: privacyMessages.personNotFound });
    expect([s.started, s.queued]).toEqual([[], []]);
  });

  it('queues a new job once; a second request answers the running job without queuing again', async () => {
    const s = setup([part('contact', { contacts: 1 })]);
    const first = await s.service.erase('acc', actor, { contactId: 'C1' });
    expect(first).toMatchObject({ _id: JOB_ID, kind: 'erasure', status: 'queued', person: { label: 'Ana López' }, requestedBy: { _id: 'owner', name: 'Dra. Núñez' }, download: null });
    expect(s.started[0]).toMatchObject({ person: { accountId: 'acc', contactId: 'C1', e164: '+34612345678', waId: '34612345678' }, requestedBy: { id: 'owner', kind: 'member' } });
    const second = await s.service.erase('acc', actor, { phoneNumber: '+34 612 34 56 78' });
    expect(second._id).toBe(JOB_ID);
    expect(s.queued).toEqual([{ kind: 'person', accountId: 'acc', jobId: JOB_ID }]);
  });

  it('gives a download link only for a done export whose file has not expired, never outliving it; an unknown or foreign job is 404', async () => {
    const done: StoredPrivacyJob = {
      id: JOB_ID,
      accountId: 'acc',
      kind: 'export',
      status: 'done',
      person: null,
      personLabel: 'Ana López',
      stepsDone: ['calls', 'conversations', 'bookings', 'notifications', 'contact'],
      currentStep: null,
      items: 0,
      counts: emptyPersonDataCounts(),
      requestedBy: null,
      createdAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
      finishedAt: NOW.toISOString(),
      failure: null,
      file: { key: 'tmp/privacy-exports/acc/x.zip', bytes: 10, fileName: 'datos-ana-lopez-2026-11-28.zip', expiresAt: '2026-11-29T12:00:00.000Z' },
    };
    const s = setup([], done);
    const view = await s.service.job('acc', JOB_ID);
    expect(view.download).toEqual({
      url: `https://s3.local/tmp/privacy-exports/acc/x.zip?name=datos-ana-lopez-2026-11-28.zip&expires=${EXPORT_LINK_MINUTES * 60}`,
      expiresAt: new Date(NOW.getTime() + EXPORT_LINK_MINUTES * 60_000).toISOString(),
      fileName: 'datos-ana-lopez-2026-11-28.zip',
      bytes: 10,
    });
    expect(view.progress).toEqual({ stepsDone: 5, stepsTotal: 5, step: null, items: 0 });
    // Five minutes of the file left: the link lasts five minutes.
    const ending = setup([], { ...done, file: { ...done.file!, expiresAt: new Date(NOW.getTime() + 300_000).toISOString() } });
    expect((await ending.service.job('acc', JOB_ID)).download?.url).toContain('expires=300');
    const expired = setup([], { ...done, file: { ...done.file!, expiresAt: '2026-11-28T11:59:59.000Z' } });
    expect((await expired.service.job('acc', JOB_ID)).download).toBeNull();
    const running = setup([], { ...done, status: 'running' });
    expect((await running.service.job('acc', JOB_ID)).download).toBeNull();
    await expect(s.service.job('other', JOB_ID)).rejects.toMatchObject({ status: 404, message: privacyMessages.jobNotFound });
    await expect(s.service.job('acc', 'not-an-id')).rejects.toMatchObject({ status: 404 });
  });
});
