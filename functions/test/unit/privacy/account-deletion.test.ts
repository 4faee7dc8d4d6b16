/**
 * The account deletion's core (domain/privacy/account-deletion.ts) over in-memory ports: only
 * the owner (as the team's items say now) may ask; a second request is the same deletion; the
 * steps run in order and each is recorded once; a crash half-way and a slice's end go on from the
 * unfinished step; the people are remembered before their logins go; the report keeps no e-mail;
 * the final sweep, queued past the access tokens' lifetime, deletes and counts what late writers
 * put back after the items step (and a sweep delivered again changes nothing).
 * Also the final e-mail in both languages, and the S3 request pieces (the listing's keys, the
 * DeleteObjects body) and their Signature V4 with a query string, against the SDK's signer.
 */
import { HttpRequest } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it } from 'vitest';
import { Sha256 } from '../../support/sha256.js';
import { signAwsRequest } from '../../../src/adapters/aws/sigv4.js';
import { deleteObjectsBody, listedKeys } from '../../../src/adapters/s3-prefix-delete.js';
import { ForbiddenError } from '../../../src/domain/errors.js';
import { accountDeletedEmail } from '../../../src/domain/privacy/account-deletion-email.js';
import { SESSION_TOKENS } from '../../../src/contract/auth.js';
import {
  ACCOUNT_DELETION_STEPS,
  createAccountDeletion,
  createAccountDeletionRequests,
  SWEEP_DELAY_SECONDS,
  type AccountDeletionCounts,
  type AccountDeletionDeps,
  type AccountDeletionJob,
  type StoredAccountDeletion,
} from '../../../src/domain/privacy/account-deletion.js';

const ACCOUNT = 'acc-1';
const OWNER = { personId: ACCOUNT, email: 'owner@clinica.es', name: 'Clínica Peña', language: 'es' };
const ADMIN = { personId: 'p-2', email: 'lucia@clinica.es', name: 'Lucía', language: 'en' };

function world() {
  const store = new Map<string, StoredAccountDeletion>();
  const calls: string[] = [];
  const queued: (AccountDeletionJob & { delaySeconds?: number })[] = [];
  const mails: { to: string; subject: string }[] = [];
  let members = [OWNER, ADMIN];
  let ownerId = ACCOUNT;
  /** Items left per user id (a page of 2 at a time). */
  const items = new Map<string, number>([[ACCOUNT, 5], [ADMIN.personId, 1]]);
  /** Items found by an e-mail address, and the objects of the account. */
  const emailItems = new Map<string, number>([[OWNER.email, 1], [ADMIN.email, 1]]);
  const objects = { left: 7 };
  const failures: Partial<Record<string, number>> = {};
  const maybeFail = (what: string) => {
    if ((failures[what] ?? 0) > 0) {
      failures[what]!--;
      throw new Error(`${what} failed`);
    }
  };
  let clock = 0;
  const deps: AccountDeletionDeps = {
    deletions: {
      async start(record) {
        const existing = store.get(record.accountId);
        if (existing) return { deletion: structuredClone(existing), created: false };
        store.set(record.accountId, structuredClone(record));
        return { deletion: record, created: true };
      },
      async get(accountId) {
        const d = store.get(accountId);
        return d ? structuredClone(d) : null;
      },
      async rememberPeople(accountId, people) {
        const d = store.get(accountId)!;
        d.people ??= people;
      },
      async record(accountId, counts, step) {
        const d = store.get(accountId)!;
        if (step && d.stepsDone.includes(step)) return;
        for (const [k, n] of Object.entries(counts)) d.counts[k as keyof AccountDeletionCounts] += n ?? 0;
        if (step) d.stepsDone.push(step);
      },
      async finish(accountId, at, expiresAt) {
        const d = store.get(accountId)!;
        Object.assign(d, { state: 'done', finishedAt: at, owner: null, people: null, expiresAt });
      },
    },
    people: { ownerId: async () => ownerId, people: async () => members },
    queue: { enqueue: async (job, delaySeconds) => void queued.push(delaySeconds === undefined ? job : { ...job, delaySeconds }) },
    subscription: { cancelNow: async () => (maybeFail('stripe'), calls.push('stripe'), true) },
    logins: { remove: async (email) => (calls.push(`login:${email}`), true) },
    memberships: { drop: async (personId) => void calls.push(`pointer:${personId}`) },
    recordings: { deleteAll: async () => (calls.push('recordings'), { deleted: 3, done: true }) },
    calendar: { disconnect: async () => (calls.push('calendar'), false) },
    objects: {
      deleteAll: async (_a, ids) => {
        maybeFail('objects');
        calls.push(`objects:${ids.join(',')}`);
        const deleted = objects.left;
        objects.left = 0;
        return { deleted, done: true };
      },
    },
    items: {
      async deleteAccount(userId, shouldYield) {
        let deleted = 0;
        // Pages of 2, each taking 10 ms of the slice, as the adapter's pages.
        while ((items.get(userId) ?? 0) > 0) {
          const page = Math.min(2, items.get(userId)!);
          items.set(userId, items.get(userId)! - page);
          deleted += page;
          clock += 10;
          if (shouldYield() && items.get(userId)! > 0) return { deleted, done: false };
        }
        return { deleted, done: true };
      },
      async deleteEmail(email) {
        calls.push(`email-items:${email}`);
        const deleted = emailItems.get(email) ?? 0;
        emailItems.set(email, 0);
        return deleted;
      },
    },
    mailer: { send: async (m) => void mails.push({ to: m.to, subject: m.subject }) },
    isLastingFailure: () => false,
    sliceMs: 1_000_000,
    now: () => clock,
    log: { info: () => undefined, warn: () => undefined },
  };
  return {
    deps,
    store,
    calls,
    queued,
    mails,
    items,
    emailItems,
    objects,
    failures,
    setMembers: (m: typeof members) => (members = m),
    setOwner: (id: string) => (ownerId = id),
  };
}

describe('account deletion: the request', () => {
  it('only the owner the team items name now; a second request is the same deletion, queued once', async () => {
    const w = world();
    const requests = createAccountDeletionRequests(w.deps);
    await expect(requests.request(ACCOUNT, ADMIN.personId)).rejects.toBeInstanceOf(ForbiddenError);
    w.setOwner(ADMIN.personId); // ownership moved: the first owner's token still says owner
    await expect(requests.request(ACCOUNT, ACCOUNT)).rejects.toBeInstanceOf(ForbiddenError);
    expect(w.store.size).toBe(0);
    w.setOwner(ACCOUNT);

    await requests.request(ACCOUNT, ACCOUNT);
    await requests.request(ACCOUNT, ACCOUNT);

    expect(w.queued).toEqual([{ accountId: ACCOUNT }]);
    expect(w.store.get(ACCOUNT)).toMatchObject({ state: 'running', owner: { email: OWNER.email, language: 'es' }, stepsDone: [] });
  });
});

describe('account deletion: the job', () => {
  async function requested() {
    const w = world();
    await createAccountDeletionRequests(w.deps).request(ACCOUNT, ACCOUNT);
    w.queued.length = 0;
    return w;
  }

  /** Delivers the queued jobs (the delayed sweep included) until none is left. */
  async function drain(w: ReturnType<typeof world>) {
    for (let i = 0; i < 20 && w.queued.length; i++) {
      const { delaySeconds: _delay, ...next } = w.queued.shift()!;
      await createAccountDeletion(w.deps).run(next, 0);
    }
  }

  it('runs every step in order, once, and keeps a report without an e-mail address', async () => {
    const w = await requested();
    const job = createAccountDeletion(w.deps);
    await job.run({ accountId: ACCOUNT }, 0);

    // Every step but the sweep; the sweep queued past the access tokens' lifetime (SQS: 900 s at most).
    expect(w.store.get(ACCOUNT)).toMatchObject({ state: 'running', stepsDone: ACCOUNT_DELETION_STEPS.filter((s) => s !== 'sweep') });
    expect(w.queued).toEqual([{ accountId: ACCOUNT, sweep: true, delaySeconds: SWEEP_DELAY_SECONDS }]);
    expect(SWEEP_DELAY_SECONDS).toBeGreaterThan(SESSION_TOKENS.accessMinutes * 60);
    expect(SWEEP_DELAY_SECONDS).toBeLessThanOrEqual(900);
    // The first run delivered again before the delay: the same delayed sweep queued, nothing deleted twice.
    await job.run({ accountId: ACCOUNT }, 0);
    expect(w.queued).toHaveLength(2);
    w.queued.length = 1;

    expect(w.calls).toEqual([
      'stripe',
      `login:${OWNER.email}`,
      `login:${ADMIN.email}`,
      `pointer:${ADMIN.personId}`,
      'recordings',
      'calendar',
      `objects:${ACCOUNT},${ADMIN.personId}`,
      `email-items:${OWNER.email}`,
      `email-items:${ADMIN.email}`,
      `email-items:${OWNER.email}`,
    ]);
    expect(w.items.get(ACCOUNT)).toBe(0);
    expect(w.items.get(ADMIN.personId)).toBe(0);
    expect(w.mails).toEqual([{ to: OWNER.email, subject: 'Tu cuenta de AgentDesk se ha eliminado' }]);

    // Late writers (a queued worker job, a member's still-valid token) put an item, an admin's item and two objects back.
    w.items.set(ACCOUNT, 1);
    w.items.set(ADMIN.personId, 1);
    w.objects.left = 2;
    const before = w.calls.length;
    await drain(w);
    expect(w.calls.slice(before)).toEqual([
      `objects:${ACCOUNT},${ADMIN.personId}`,
      `email-items:${OWNER.email}`,
      `email-items:${ADMIN.email}`,
      `email-items:${OWNER.email}`,
    ]);
    expect(w.items.get(ACCOUNT)).toBe(0);
    expect(w.items.get(ADMIN.personId)).toBe(0);
    const report = w.store.get(ACCOUNT)!;
    expect(report.stepsDone).toEqual([...ACCOUNT_DELETION_STEPS]);
    expect(report.counts).toEqual({ subscriptions: 1, logins: 2, recordings: 3, calendars: 0, objects: 7, items: 6 + 2, emails: 1, sweptObjects: 2, sweptItems: 2 });
    expect(report.state).toBe('done');
    expect(JSON.stringify(report)).not.toContain('@');

    // Delivered again (the first job or the sweep): nothing more happens.
    const after = w.calls.length;
    await job.run({ accountId: ACCOUNT }, 0);
    await job.run({ accountId: ACCOUNT, sweep: true }, 0);
    expect(w.calls.length).toBe(after);
    expect(w.queued).toEqual([]);
    expect(w.mails).toHaveLength(1);
    expect(w.store.get(ACCOUNT)).toEqual(report);
  });

  it('a crash half-way: the retry goes on from the unfinished step, the people it remembered first', async () => {
    const w = await requested();
    const job = createAccountDeletion(w.deps);
    w.failures.objects = 1;
    await expect(job.run({ accountId: ACCOUNT }, 0)).rejects.toThrow('objects failed');
    expect(w.store.get(ACCOUNT)!.stepsDone).toEqual(['subscription', 'logins', 'recordings', 'calendar']);
    // The member left meanwhile (their item gone): the remembered list still names them.
    w.setMembers([OWNER]);

    await job.run({ accountId: ACCOUNT }, 0);
    await drain(w);

    expect(w.calls.filter((c) => c === 'stripe')).toHaveLength(1);
    expect(w.calls.filter((c) => c.startsWith('login:'))).toHaveLength(2);
    expect(w.calls).toContain(`objects:${ACCOUNT},${ADMIN.personId}`);
    expect(w.items.get(ADMIN.personId)).toBe(0);
    expect(w.store.get(ACCOUNT)).toMatchObject({ state: 'done', counts: { subscriptions: 1, logins: 2, objects: 7, emails: 1, sweptObjects: 0, sweptItems: 0 } });
  });

  it('near the timeout it records what it did and queues itself with resume', async () => {
    const w = await requested();
    const job = createAccountDeletion({ ...w.deps, sliceMs: 15 });
    await job.run({ accountId: ACCOUNT }, 0);
    expect(w.queued).toEqual([{ accountId: ACCOUNT, resume: 1 }]);
    const partway = w.store.get(ACCOUNT)!;
    expect(partway.stepsDone).not.toContain('items');
    expect(partway.counts.items).toBeGreaterThan(0);

    await drain(w);
    expect(w.store.get(ACCOUNT)).toMatchObject({ state: 'done', counts: { items: 8, sweptItems: 0 } });
  });

  it("the sweep's slice ends: it records what it found and queues itself again as the sweep", async () => {
    const w = await requested();
    await createAccountDeletion(w.deps).run({ accountId: ACCOUNT }, 0);
    w.queued.length = 0;
    w.items.set(ACCOUNT, 5); // a late writer's five items: three pages of 2 at 10 ms each
    await createAccountDeletion({ ...w.deps, sliceMs: 15 }).run({ accountId: ACCOUNT, sweep: true }, w.deps.now!());
    expect(w.queued).toEqual([{ accountId: ACCOUNT, resume: 1, sweep: true }]);
    expect(w.store.get(ACCOUNT)).toMatchObject({ state: 'running', counts: { sweptItems: 4 } });
    await drain(w);
    expect(w.store.get(ACCOUNT)).toMatchObject({ state: 'done', counts: { sweptItems: 5 } });
    expect(w.items.get(ACCOUNT)).toBe(0);
  });

  it('a job without a deletion item does nothing', async () => {
    const w = world();
    await createAccountDeletion(w.deps).run({ accountId: 'nobody' }, 0);
    expect(w.calls).toEqual([]);
  });
});

describe('the final e-mail', () => {
  it('says what went and what stays, in Spanish and in English', () => {
    const es = accountDeletedEmail({ name: 'Clínica Peña', language: 'es', startedAt: '2026-11-28T23:00:00.000Z' });
    expect(es.subject).toBe('Tu cuenta de AgentDesk se ha eliminado');
    expect(es.text).toContain('Hola, Clínica Peña:');
    expect(es.text).toContain('el 2026-11-28');
    expect(es.text).toContain('Stripe conserva');
    expect(es.text).toContain('35 días');
    expect(es.html).toContain('Clínica Peña');
    const en = accountDeletedEmail({ name: '<b>', language: 'en', startedAt: '2026-11-28T23:00:00.000Z' });
    expect(en.subject).toBe('Your AgentDesk account has been deleted');
    expect(en.text).toContain('within 35 days');
    expect(en.html).toContain('&lt;b&gt;');
  });
});

describe('S3 prefix deletion requests', () => {
  it('reads the keys of a ListObjectsV2 answer (XML entities) and writes the DeleteObjects body', () => {
    const xml = `<?xml version="1.0"?><ListBucketResult><Name>b</Name><Contents><Key>agents/a/x/F1/tarifas &amp; precios.pdf</Key><Size>1</Size></Contents><Contents><Key>agents/a/y</Key></Contents></ListBucketResult>`;
    expect(listedKeys(xml)).toEqual(['agents/a/x/F1/tarifas & precios.pdf', 'agents/a/y']);
    expect(deleteObjectsBody(['a/<1>'])).toContain('<Object><Key>a/&lt;1&gt;</Key></Object>');
    expect(deleteObjectsBody(['a/1'])).toContain('<Quiet>true</Quiet>');
  });

  it('signs a request with a query string as the SDK signs it', async () => {
    const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
    const date = new Date('2026-11-28T23:00:00.000Z');
    const url = new URL('https://uploads.s3.eu-south-2.amazonaws.com/?list-type=2&max-keys=1000&prefix=agents%2Fabc%2F');
    const ours = signAwsRequest({ service: 's3', method: 'GET', url, body: '', region: 'eu-south-2', credentials, date });
    const query = Object.fromEntries(url.searchParams);
    const sdk = await new SignatureV4({ credentials, region: 'eu-south-2', service: 's3', sha256: Sha256, uriEscapePath: false, applyChecksum: true }).sign(
      new HttpRequest({ method: 'GET', protocol: 'https:', hostname: url.hostname, path: url.pathname, query, headers: { host: url.host } }),
      { signingDate: date },
    );
    expect(ours.authorization).toBe(sdk.headers.authorization);
  });
});
