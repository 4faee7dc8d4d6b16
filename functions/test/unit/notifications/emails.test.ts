/**
 * The outbound e-mail queue (issue 34 item 4, domain/notifications/emails.ts) over in-memory
 * ports and the real SES mailer (adapters/mailer.ts) in front of a scripted SES: an e-mail waits
 * for SES (retrying while it answers errors or cannot be reached), is sent exactly once however
 * often its message comes, gives up with a reason on refusals, after the whole schedule, or when a
 * try stopped while SES may have had it (never sent twice), and a Resend starts a new send.
 */
import { describe, expect, it } from 'vitest';
import { AwsServiceError } from '../../../src/adapters/aws/aws-json.js';
import { SesMailer } from '../../../src/adapters/mailer.js';
import type { OutboundEmailJob } from '../../../src/contract/jobs.js';
import {
  createOutboundEmails,
  EmailSendBusyError,
  giveUpOutboundEmail,
  sendOutboundEmail,
  type EmailRef,
  type OutboundEmailWorkerDeps,
} from '../../../src/domain/notifications/emails.js';
import { TransientError } from '../../../src/domain/retry.js';
import { MemoryEmailDeliveryStore, MemoryEmailQueue } from './email-fakes.js';

const ref: EmailRef = { kind: 'call-summary', userId: 'u1', subjectId: 'CALL1' };
const alertRef: EmailRef = { kind: 'notification', userId: 'u1', subjectId: 'N1' };

const connectionError = (code: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) });
const sesError = (code: string, status: number, message = code) => new AwsServiceError(code, message, status, 'req', 1, {});

function world(options: { email?: string | null; language?: string } = {}) {
  let clock = Date.parse('2026-11-28T10:00:00.000Z');
  let seq = 0;
  const store = new MemoryEmailDeliveryStore();
  store.addSubject(ref);
  store.addSubject(alertRef);
  const queue = new MemoryEmailQueue();
  const now = () => clock;
  const emails = createOutboundEmails({ store, queue, newId: () => `01J${String(++seq).padStart(23, '0')}`, now });
  /** What SES answers to the next requests (then success); each accepted e-mail is kept. */
  const answers: unknown[] = [];
  const sent: Array<{ to: string; subject: string }> = [];
  const settled: Array<{ subjectId: string; state: string; reason?: string; resends: number; tries: number }> = [];
  const owner = { email: options.email === undefined ? 'owner@example.com' : options.email, language: options.language ?? 'en' };
  const mailer = new SesMailer(async (_path, input) => {
    const failure = answers.shift();
    if (failure) throw failure;
    const request = input as { Destination: { ToAddresses: string[] }; Content: { Simple: { Subject: { Data: string } } } };
    sent.push({ to: request.Destination.ToAddresses[0]!, subject: request.Content.Simple.Subject.Data });
    return {} as never;
  }, 'AgentDesk <no-reply@example.com>');
  const deps: OutboundEmailWorkerDeps = {
    store,
    users: { get: async () => ({ email: owner.email ?? '', language: owner.language }) },
    // Issue 32: the account's members (Lucía, in Spanish); anyone else is no longer one.
    members: { get: async (_a: string, personId: string) => (personId === 'p-lucia' ? { email: 'lucia.martin@example.es', language: 'es' } : null) },
    renderers: {
      'call-summary': async (r, o) => (store.subjects.has(`${r.kind}#${r.userId}#${r.subjectId}`) ? { subject: `Summary ${r.subjectId} (${o.language})`, text: 't', html: '<p>t</p>' } : null),
      notification: async (r, o) => ({ subject: `Alert ${r.subjectId}${r.personId ? ` for ${r.personId} (${o.language})` : ''}`, text: 't', html: '<p>t</p>' }),
      'call-handoff': async (r) => ({ subject: `Handoff ${r.subjectId}`, text: 't', html: '<p>t</p>' }),
      'booking-change': async (r) => ({ subject: `Booking ${r.subjectId}`, text: 't', html: '<p>t</p>' }),
      'team-invitation': async (r) => ({ subject: `Invitation ${r.subjectId}`, text: 't', html: '<p>t</p>', to: 'invitee@example.com' }),
    },
    mailer,
    leaseMs: 30_000,
    onSettled: { 'call-summary': async (r, o) => void settled.push({ subjectId: r.subjectId, state: o.state, resends: o.resends, tries: o.tries, ...(o.reason ? { reason: o.reason } : {}) }) },
    now,
  };
  const deliver = (job: OutboundEmailJob, finalAttempt = false) => sendOutboundEmail(deps, job, { finalAttempt });
  return { store, queue, emails, answers, sent, settled, owner, deps, deliver, tick: (ms: number) => void (clock += ms) };
}

describe('outbound e-mail: producers', () => {
  it('queues the subject’s e-mail once: a retried producer puts the same send back on the queue, and both messages send one e-mail', async () => {
    const w = world();
    const first = await w.emails.queue(ref);
    const again = await w.emails.queue(ref);
    expect(first).toMatchObject({ state: 'queued', tries: 0, resends: 0 });
    expect(again?.sendId).toBe(first?.sendId);
    expect(w.queue.jobs).toEqual([
      { kind: 'call-summary', userId: 'u1', subjectId: 'CALL1', sendId: first!.sendId },
      { kind: 'call-summary', userId: 'u1', subjectId: 'CALL1', sendId: first!.sendId },
    ]);
    expect(await w.deliver(w.queue.jobs[0]!)).toBe('sent');
    expect(await w.deliver(w.queue.jobs[1]!)).toBe('done');
    expect(w.sent).toHaveLength(1);
    // Once sent, the producer queues nothing more.
    expect(await w.emails.queue(ref)).toMatchObject({ state: 'sent' });
    expect(w.queue.jobs).toHaveLength(2);
  });

  it('a subject that does not exist gets no delivery and no message', async () => {
    const w = world();
    expect(await w.emails.queue({ ...ref, subjectId: 'NOPE' })).toBeNull();
    expect(w.queue.jobs).toEqual([]);
  });

  it('a message the queue refused leaves the send failed (not_queued) and throws; the producer’s retry starts it again', async () => {
    const w = world();
    w.queue.refuse = true;
    await expect(w.emails.queue(ref)).rejects.toThrow(/SQS refused/);
    expect(w.store.delivery(ref)).toMatchObject({ state: 'failed', reason: 'not_queued' });
    w.queue.refuse = false;
    const again = await w.emails.queue(ref);
    expect(again).toMatchObject({ state: 'queued' });
    expect(w.queue.jobs).toEqual([expect.objectContaining({ sendId: again!.sendId })]);
    expect(await w.deliver(w.queue.jobs[0]!)).toBe('sent');
  });
});

describe('outbound e-mail: a member’s alert (issue 32)', () => {
  it('goes to the member the job names, in their language, once; a person no longer a member gets nothing (no_address)', async () => {
    const w = world();
    const lucia: EmailRef = { ...alertRef, personId: 'p-lucia' };
    await w.emails.queue(lucia);
    await w.emails.queue(lucia);
    expect(w.queue.jobs[0]).toEqual({ kind: 'notification', userId: 'u1', subjectId: 'N1', personId: 'p-lucia', sendId: expect.any(String) });
    expect(await w.deliver(w.queue.jobs[0]!)).toBe('sent');
    expect(await w.deliver(w.queue.jobs[1]!)).toBe('done');
    expect(w.sent).toEqual([{ to: 'lucia.martin@example.es', subject: 'Alert N1 for p-lucia (es)' }]);

    const gone = world();
    await gone.emails.queue({ ...alertRef, personId: 'p-gone' });
    expect(await gone.deliver(gone.queue.jobs[0]!)).toBe('failed');
    expect(gone.store.delivery(alertRef)).toMatchObject({ state: 'failed', reason: 'no_address' });
    expect(gone.sent).toEqual([]);
  });
});

describe('outbound e-mail: the worker', () => {
  it('waits for SES: an error answer or a refused connection leaves it retrying (thrown for the schedule), nothing sent; SES back, it is sent once', async () => {
    const w = world();
    await w.emails.queue(ref);
    const job = w.queue.jobs[0]!;
    w.answers.push(sesError('InternalFailure', 500), connectionError('ECONNREFUSED'));
    await expect(w.deliver(job)).rejects.toBeInstanceOf(TransientError);
    expect(w.store.delivery(ref)).toMatchObject({ state: 'retrying', reason: 'unavailable', tries: 1 });
    await expect(w.deliver(job)).rejects.toBeInstanceOf(TransientError);
    expect(w.store.delivery(ref)).toMatchObject({ state: 'retrying', tries: 2 });
    expect(w.sent).toEqual([]);
    expect(await w.deliver(job)).toBe('sent');
    expect(w.store.delivery(ref)).toMatchObject({ state: 'sent', tries: 3, sentAt: expect.any(String) });
    expect(w.store.delivery(ref)?.reason).toBeUndefined();
    // A redelivered message (SQS at least once) sends nothing more.
    expect(await w.deliver(job)).toBe('done');
    expect(w.sent).toEqual([{ to: 'owner@example.com', subject: 'Summary CALL1 (en)' }]);
  });

  it('SES down for the whole schedule: the last try records failed (unavailable), nothing thrown', async () => {
    const w = world();
    await w.emails.queue(ref);
    w.answers.push(sesError('ServiceUnavailable', 503));
    expect(await w.deliver(w.queue.jobs[0]!, true)).toBe('failed');
    expect(w.store.delivery(ref)).toMatchObject({ state: 'failed', reason: 'unavailable' });
    expect(w.sent).toEqual([]);
  });

  it('SES refusals fail at once with their reason, never retried', async () => {
    const cases: Array<[unknown, string]> = [
      [sesError('MessageRejected', 400, 'Illegal address'), 'rejected'],
      [sesError('MessageRejected', 400, 'Email address is not verified. The following identities failed the check in region EU-WEST-1: owner@example.com'), 'not_verified'],
      [sesError('MailFromDomainNotVerifiedException', 400), 'not_verified'],
      [sesError('SendingPausedException', 400), 'sending_paused'],
      [sesError('AccountSuspendedException', 400), 'sending_paused'],
      [sesError('AccessDeniedException', 403), 'permission'],
      [sesError('UnrecognizedClientException', 403), 'credentials'],
      [sesError('BadRequestException', 400), 'rejected'],
    ];
    for (const [error, reason] of cases) {
      const w = world();
      await w.emails.queue(ref);
      w.answers.push(error);
      expect(await w.deliver(w.queue.jobs[0]!)).toBe('failed');
      expect(w.store.delivery(ref), reason).toMatchObject({ state: 'failed', reason, tries: 1 });
      expect(await w.deliver(w.queue.jobs[0]!)).toBe('done');
      expect(w.sent).toEqual([]);
    }
  });

  it('never twice: a connection broken after the request went out, or a try that died holding the send, ends unconfirmed without a second e-mail', async () => {
    const reset = world();
    await reset.emails.queue(ref);
    reset.answers.push(connectionError('ECONNRESET'));
    expect(await reset.deliver(reset.queue.jobs[0]!)).toBe('failed');
    expect(reset.store.delivery(ref)).toMatchObject({ state: 'failed', reason: 'unconfirmed' });

    // A try claimed the send and died (no catch ran): within its lease a duplicate comes back later…
    const died = world();
    await died.emails.queue(ref);
    const job = died.queue.jobs[0]!;
    await died.store.claim(ref, job.sendId, new Date().toISOString(), new Date(Date.parse('2026-11-28T10:00:30.000Z')).toISOString());
    await expect(died.deliver(job)).rejects.toBeInstanceOf(EmailSendBusyError);
    // …after it, the send is recorded unconfirmed, not sent again.
    died.tick(31_000);
    expect(await died.deliver(job)).toBe('unconfirmed');
    expect(died.store.delivery(ref)).toMatchObject({ state: 'failed', reason: 'unconfirmed' });
    expect(died.sent).toEqual([]);
  });

  it('the address and language are the account’s when it is sent; no address or no subject fails with the reason', async () => {
    const w = world({ language: 'es' });
    await w.emails.queue(ref);
    w.owner.email = 'new-address@example.com';
    expect(await w.deliver(w.queue.jobs[0]!)).toBe('sent');
    expect(w.sent).toEqual([{ to: 'new-address@example.com', subject: 'Summary CALL1 (es)' }]);

    const none = world({ email: null });
    await none.emails.queue(alertRef);
    expect(await none.deliver(none.queue.jobs[0]!)).toBe('failed');
    expect(none.store.delivery(alertRef)).toMatchObject({ state: 'failed', reason: 'no_address' });

    const deleted = world();
    await deleted.emails.queue(ref);
    deleted.store.removeSubject(ref);
    expect(await deleted.deliver(deleted.queue.jobs[0]!)).toBe('gone');
    expect(deleted.sent).toEqual([]);
  });

  it('the give-up delivery: a send still claimed is unconfirmed, one never taken unavailable; a sent one is left alone', async () => {
    const w = world();
    await w.emails.queue(ref);
    await w.emails.queue(alertRef);
    const [summaryJob, alertJob] = w.queue.jobs;
    await w.store.claim(ref, summaryJob!.sendId, 'x', 'y');
    await giveUpOutboundEmail(w.deps, summaryJob!);
    await giveUpOutboundEmail(w.deps, alertJob!);
    expect(w.store.delivery(ref)).toMatchObject({ state: 'failed', reason: 'unconfirmed' });
    expect(w.store.delivery(alertRef)).toMatchObject({ state: 'failed', reason: 'unavailable' });

    const sent = world();
    await sent.emails.queue(ref);
    await sent.deliver(sent.queue.jobs[0]!);
    await giveUpOutboundEmail(sent.deps, sent.queue.jobs[0]!);
    expect(sent.store.delivery(ref)).toMatchObject({ state: 'sent' });
  });
});

describe('outbound e-mail: Resend', () => {
  it('a failed e-mail is sent again as a new send; the old send’s messages do nothing; a second click while it is on its way changes nothing', async () => {
    const w = world();
    await w.emails.queue(ref);
    const old = w.queue.jobs[0]!;
    w.answers.push(sesError('ServiceUnavailable', 503));
    await w.deliver(old, true);
    expect(w.store.delivery(ref)).toMatchObject({ state: 'failed', reason: 'unavailable' });

    const resent = await w.emails.resend(ref, 5);
    expect(resent).toMatchObject({ outcome: 'queued', delivery: { state: 'queued', tries: 0, resends: 1 } });
    expect(await w.emails.resend(ref, 5)).toMatchObject({ outcome: 'in_flight' });
    expect(w.queue.jobs).toHaveLength(2);
    const fresh = w.queue.jobs[1]!;
    expect(fresh.sendId).not.toBe(old.sendId);
    expect(await w.deliver(old)).toBe('done');
    expect(await w.deliver(fresh)).toBe('sent');
    expect(w.sent).toHaveLength(1);
    expect(w.store.delivery(ref)).toMatchObject({ state: 'sent', resends: 1 });
    // Each send's end is told once (the call keeps it among its summary deliveries).
    expect(w.settled).toEqual([
      { subjectId: 'CALL1', state: 'failed', reason: 'unavailable', resends: 0, tries: 1 },
      { subjectId: 'CALL1', state: 'sent', resends: 1, tries: 1 },
    ]);
  });

  it('at most `max` resends; a subject never e-mailed has nothing to resend', async () => {
    const w = world();
    await w.emails.queue(ref);
    await w.deliver(w.queue.jobs[0]!);
    for (let i = 0; i < 2; i++) {
      expect(await w.emails.resend(ref, 2)).toMatchObject({ outcome: 'queued' });
      await w.deliver(w.queue.jobs.at(-1)!);
    }
    expect(await w.emails.resend(ref, 2)).toMatchObject({ outcome: 'limit', delivery: { resends: 2 } });
    expect(w.sent).toHaveLength(3);
    expect(await w.emails.resend(alertRef, 2)).toEqual({ outcome: 'none' });
  });
});
