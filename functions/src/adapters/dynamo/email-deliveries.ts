/**
 * The delivery state of an outbound e-mail (issue 34 item 4, domain/notifications/emails.ts), kept
 * as a map attribute on its subject's item, so the page that shows the subject reads it with it:
 *
 * - call-summary: pk=USER#{u}, sk=VCALL#{callId}, attribute `summaryEmail`;
 * - call-handoff: the same call item, attribute `handoffEmail`;
 * - notification: pk=USER#{u}, sk=NOTIF#{id}, attribute `alertEmail` (issue 32: a member's
 *   notification's sort key carries `PERSON#{personId}#` in front, person-keys.ts);
 * - booking-change: pk=USER#{u}, sk=BKMAIL#{noticeId}, attribute `email` (issue 30).
 * - team-invitation: pk=USER#{account}, sk=INVITE#{id}, attribute `emailDelivery` (issue 32).
 *
 * Every write is conditional on the subject's item existing (a deleted call gets no ghost item)
 * and on the send it expects (sendId and state), which is what makes a send happen once.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { EmailDeliveryState, EmailFailureReason } from '../../contract/email-delivery.js';
import type { EmailDeliveryStore, EmailRef, StoredEmailDelivery } from '../../domain/notifications/emails.js';
import { conditionHolds } from './conditions.js';
import { userPk } from './keys.js';
import { personSk } from './person-keys.js';

/** Where each kind's delivery lives. */
export const EMAIL_DELIVERY_PLACES = {
  'call-summary': { skPrefix: 'VCALL#', attribute: 'summaryEmail' },
  'call-handoff': { skPrefix: 'VCALL#', attribute: 'handoffEmail' },
  notification: { skPrefix: 'NOTIF#', attribute: 'alertEmail' },
  // Issue 30: the owner's e-mail about a change the agent made (adapters/dynamo/booking-messages.ts).
  'booking-change': { skPrefix: 'BKMAIL#', attribute: 'email' },
  // Issue 32: the invitation's e-mail to the invitee (adapters/dynamo/team.ts INVITE# items).
  'team-invitation': { skPrefix: 'INVITE#', attribute: 'emailDelivery' },
} as const;

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The stored map as the domain's shape (a damaged one reads as none). */
export function toEmailDelivery(value: unknown): StoredEmailDelivery | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const sendId = str(v.sendId);
  const state = str(v.state) as EmailDeliveryState | undefined;
  const at = str(v.at);
  if (!sendId || !state || !at) return null;
  return {
    sendId,
    state,
    at,
    tries: typeof v.tries === 'number' ? v.tries : 0,
    resends: typeof v.resends === 'number' ? v.resends : 0,
    ...(str(v.sentAt) ? { sentAt: str(v.sentAt)! } : {}),
    ...(str(v.reason) ? { reason: str(v.reason) as EmailFailureReason } : {}),
    ...(str(v.leaseUntil) ? { leaseUntil: str(v.leaseUntil)! } : {}),
  };
}

export class DynamoEmailDeliveryStore implements EmailDeliveryStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private place(ref: EmailRef) {
    const { skPrefix, attribute } = EMAIL_DELIVERY_PLACES[ref.kind];
    const sk = `${skPrefix}${ref.subjectId}`;
    return { Key: { pk: userPk(ref.userId), sk: ref.personId ? personSk(ref.userId, ref.personId, sk) : sk }, attribute };
  }

  async get(ref: EmailRef): Promise<StoredEmailDelivery | null> {
    const { Key, attribute } = this.place(ref);
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key, ConsistentRead: true, ProjectionExpression: '#d', ExpressionAttributeNames: { '#d': attribute } }),
    );
    return toEmailDelivery(Item?.[attribute]);
  }

  async put(ref: EmailRef, next: StoredEmailDelivery, expected?: { sendId: string; state: EmailDeliveryState }): Promise<boolean> {
    const { Key, attribute } = this.place(ref);
    return conditionHolds(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key,
          UpdateExpression: 'SET #d = :next',
          ConditionExpression: expected ? 'attribute_exists(pk) AND #d.sendId = :sendId AND #d.#st = :state' : 'attribute_exists(pk) AND attribute_not_exists(#d)',
          ExpressionAttributeNames: { '#d': attribute, ...(expected ? { '#st': 'state' } : {}) },
          ExpressionAttributeValues: { ':next': next, ...(expected ? { ':sendId': expected.sendId, ':state': expected.state } : {}) },
        }),
      ),
    );
  }

  async claim(ref: EmailRef, sendId: string, at: string, leaseUntil: string): Promise<boolean> {
    const { Key, attribute } = this.place(ref);
    return conditionHolds(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key,
          UpdateExpression: 'SET #d.#st = :sending, #d.#at = :at, #d.leaseUntil = :lease, #d.tries = if_not_exists(#d.tries, :zero) + :one',
          ConditionExpression: 'attribute_exists(pk) AND #d.sendId = :sendId AND #d.#st IN (:queued, :retrying)',
          ExpressionAttributeNames: { '#d': attribute, '#st': 'state', '#at': 'at' },
          ExpressionAttributeValues: { ':sending': 'sending', ':at': at, ':lease': leaseUntil, ':zero': 0, ':one': 1, ':sendId': sendId, ':queued': 'queued', ':retrying': 'retrying' },
        }),
      ),
    );
  }

  async settle(
    ref: EmailRef,
    sendId: string,
    from: readonly EmailDeliveryState[],
    to: { state: EmailDeliveryState; at: string; reason?: EmailFailureReason; sentAt?: string },
  ): Promise<boolean> {
    const { Key, attribute } = this.place(ref);
    const set = ['#d.#st = :to', '#d.#at = :at'];
    const remove = ['#d.leaseUntil'];
    const values: Record<string, unknown> = { ':to': to.state, ':at': to.at, ':sendId': sendId };
    if (to.reason) {
      set.push('#d.reason = :reason');
      values[':reason'] = to.reason;
    } else remove.push('#d.reason');
    if (to.sentAt) {
      set.push('#d.sentAt = :sentAt');
      values[':sentAt'] = to.sentAt;
    }
    from.forEach((state, i) => (values[`:from${i}`] = state));
    return conditionHolds(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key,
          UpdateExpression: `SET ${set.join(', ')} REMOVE ${remove.join(', ')}`,
          ConditionExpression: `attribute_exists(pk) AND #d.sendId = :sendId AND #d.#st IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
          ExpressionAttributeNames: { '#d': attribute, '#st': 'state', '#at': 'at' },
          ExpressionAttributeValues: values,
        }),
      ),
    );
  }
}
