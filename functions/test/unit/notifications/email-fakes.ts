/**
 * In-memory ports of the outbound e-mail queue (domain/notifications/emails.ts): a delivery store
 * with the same conditions as the DynamoDB one (the subject must exist; writes name the send and
 * state they expect), and a queue that records its jobs (or refuses them).
 */
import type { OutboundEmailJob } from '../../../src/contract/jobs.js';
import type { EmailDeliveryStore, EmailRef, OutboundEmailQueue, StoredEmailDelivery } from '../../../src/domain/notifications/emails.js';

const keyOf = (ref: EmailRef) => `${ref.kind}#${ref.userId}#${ref.subjectId}`;

export class MemoryEmailDeliveryStore implements EmailDeliveryStore {
  /** Subjects that exist, with their delivery (undefined = none yet). */
  readonly subjects = new Map<string, StoredEmailDelivery | undefined>();
  writes = 0;

  addSubject(ref: EmailRef): void {
    this.subjects.set(keyOf(ref), undefined);
  }

  removeSubject(ref: EmailRef): void {
    this.subjects.delete(keyOf(ref));
  }

  delivery(ref: EmailRef): StoredEmailDelivery | undefined {
    return this.subjects.get(keyOf(ref));
  }

  async get(ref: EmailRef) {
    const d = this.subjects.get(keyOf(ref));
    return d ? { ...d } : null;
  }

  async put(ref: EmailRef, next: StoredEmailDelivery, expected?: { sendId: string; state: StoredEmailDelivery['state'] }) {
    const key = keyOf(ref);
    if (!this.subjects.has(key)) return false;
    const current = this.subjects.get(key);
    if (expected ? !current || current.sendId !== expected.sendId || current.state !== expected.state : current !== undefined) return false;
    this.subjects.set(key, { ...next });
    this.writes++;
    return true;
  }

  async claim(ref: EmailRef, sendId: string, at: string, leaseUntil: string) {
    const key = keyOf(ref);
    const current = this.subjects.get(key);
    if (!current || current.sendId !== sendId || (current.state !== 'queued' && current.state !== 'retrying')) return false;
    this.subjects.set(key, { ...current, state: 'sending', at, leaseUntil, tries: current.tries + 1 });
    this.writes++;
    return true;
  }

  async settle(ref: EmailRef, sendId: string, from: readonly StoredEmailDelivery['state'][], to: { state: StoredEmailDelivery['state']; at: string; reason?: StoredEmailDelivery['reason']; sentAt?: string }) {
    const key = keyOf(ref);
    const current = this.subjects.get(key);
    if (!current || current.sendId !== sendId || !from.includes(current.state)) return false;
    const { leaseUntil: _l, reason: _r, ...rest } = current;
    this.subjects.set(key, { ...rest, state: to.state, at: to.at, ...(to.reason ? { reason: to.reason } : {}), ...(to.sentAt ? { sentAt: to.sentAt } : {}) });
    this.writes++;
    return true;
  }
}

export class MemoryEmailQueue implements OutboundEmailQueue {
  readonly jobs: OutboundEmailJob[] = [];
  refuse = false;

  async enqueue(job: OutboundEmailJob): Promise<void> {
    if (this.refuse) throw new Error('SQS refused 1 of 1 outbound-email message(s)');
    this.jobs.push(job);
  }
}
