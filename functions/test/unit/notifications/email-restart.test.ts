/**
 * What issue 32's invitations need from the outbound e-mail queue: a job that carries the
 * invitation link's token (that kind only), a renderer naming its own recipient, and restart() —
 * a new send that supersedes one still on its way (a resent invitation's new link), so the older
 * message sends nothing.
 */
import { describe, expect, it } from 'vitest';
import { outboundEmailJob } from '../../../src/contract/jobs.js';
import { createOutboundEmails, sendOutboundEmail, type EmailRef, type OutboundEmailWorkerDeps } from '../../../src/domain/notifications/emails.js';
import { MemoryEmailDeliveryStore, MemoryEmailQueue } from './email-fakes.js';

const TOKEN_A = 'A'.repeat(43);
const TOKEN_B = 'B'.repeat(43);
const invitation: EmailRef = { kind: 'team-invitation', userId: 'acc-1', subjectId: 'INV1' };

function world() {
  let seq = 0;
  const store = new MemoryEmailDeliveryStore();
  store.addSubject(invitation);
  const queue = new MemoryEmailQueue();
  const emails = createOutboundEmails({ store, queue, newId: () => `01J${String(++seq).padStart(23, '0')}`, now: () => Date.parse('2026-11-28T10:00:00.000Z') });
  const sent: Array<{ to: string; subject: string }> = [];
  const deps = {
    store,
    users: { get: async () => ({ email: 'owner@example.es', language: 'es' }) },
    members: { get: async () => null },
    renderers: {
      // The current link is B: a job with another token renders nothing (domain/team/invitation-email.ts).
      'team-invitation': async (r: EmailRef) => (r.token === TOKEN_B ? { subject: `Invitación ${r.subjectId}`, text: r.token, html: '<p>x</p>', to: 'lucia.martin@example.es' } : null),
    },
    mailer: { send: async (m: { to: string; subject: string }) => void sent.push({ to: m.to, subject: m.subject }) },
    leaseMs: 30_000,
  } as unknown as OutboundEmailWorkerDeps;
  return { store, queue, emails, sent, deliver: (i: number) => sendOutboundEmail(deps, queue.jobs[i]!, { finalAttempt: false }) };
}

describe('outbound e-mail for invitations (issue 32)', () => {
  it('the token rides only on a team-invitation job', () => {
    const base = { userId: 'acc-1', subjectId: 'INV1', sendId: '01J00000000000000000000001' };
    expect(outboundEmailJob.safeParse({ ...base, kind: 'team-invitation', token: TOKEN_A }).success).toBe(true);
    expect(outboundEmailJob.safeParse({ ...base, kind: 'team-invitation' }).success).toBe(false);
    expect(outboundEmailJob.safeParse({ ...base, kind: 'notification', token: TOKEN_A }).success).toBe(false);
    expect(outboundEmailJob.safeParse({ ...base, kind: 'team-invitation', token: 'short' }).success).toBe(false);
  });

  it('restart supersedes a send still queued: the old message sends nothing, the new one goes to the invitee once', async () => {
    const w = world();
    await w.emails.queue({ ...invitation, token: TOKEN_A });
    const restarted = await w.emails.restart({ ...invitation, token: TOKEN_B });

    expect(restarted).toMatchObject({ state: 'queued', resends: 1 });
    expect(w.queue.jobs.map((j) => j.token)).toEqual([TOKEN_A, TOKEN_B]);
    expect(await w.deliver(0)).toBe('done');
    expect(await w.deliver(1)).toBe('sent');
    expect(await w.deliver(1)).toBe('done');
    expect(w.sent).toEqual([{ to: 'lucia.martin@example.es', subject: 'Invitación INV1' }]);
  });

  it('a job whose token is no longer the link renders nothing: failed, nothing sent', async () => {
    const w = world();
    await w.emails.queue({ ...invitation, token: TOKEN_A });
    expect(await w.deliver(0)).toBe('failed');
    expect(w.store.delivery(invitation)).toMatchObject({ state: 'failed', reason: 'gone' });
    expect(w.sent).toEqual([]);
  });
});
