/**
 * Who sent a person's message (issue 32): the member who replied from the dashboard, or the API
 * key an external system replied with. Resolved once when the message is stored (the name as of
 * sending: a later rename or removal does not rewrite the thread) and checked again whenever a
 * stored one is read, so a malformed item never reaches a view.
 */
import { MESSAGE_SENDER_KINDS, MESSAGE_SENDER_NAME_MAX, type MessageSender } from '../../contract/whatsapp.js';
import { teamMessages } from '../../contract/team.js';
import type { StoredApiKey } from '../api-keys/ports.js';
import type { TeamMembers } from '../team/ports.js';
import { ForbiddenError } from '../errors.js';

/** As stored on the message (StoredMessage.sender). */
export interface StoredMessageSender {
  kind: MessageSender['kind'];
  id: string;
  name: string;
}

/** Who is sending, as the HTTP layer knows them (Request.actor()). */
export type MessageActor = { kind: 'member'; id: string } | { kind: 'apiKey'; id: string };

/** Where a sender's name comes from: the account's active members and its API keys. */
export interface SenderDirectory {
  members: Pick<TeamMembers, 'get'>;
  apiKeys: { get(accountId: string, id: string): Promise<Pick<StoredApiKey, 'id' | 'name'> | null> };
}

/** A person id (Cognito sub) or an API key id. */
const SENDER_ID_RE = /^[A-Za-z0-9-]{1,64}$/;

/** A stored sender, strictly: the right kind, a well-formed id and a name (cut to its maximum); else undefined. */
export function storedSender(raw: unknown): StoredMessageSender | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { kind, id, name } = raw as Record<string, unknown>;
  if (!(MESSAGE_SENDER_KINDS as readonly unknown[]).includes(kind)) return undefined;
  if (typeof id !== 'string' || !SENDER_ID_RE.test(id)) return undefined;
  if (typeof name !== 'string') return undefined;
  const shown = name.trim().slice(0, MESSAGE_SENDER_NAME_MAX);
  return { kind: kind as StoredMessageSender['kind'], id, name: shown };
}

export const senderView = (s: StoredMessageSender): MessageSender => ({ kind: s.kind, _id: s.id, name: s.name });

/**
 * The sender of a message `actor` is about to send in `accountId`. A member no longer active in
 * the account (removed while their access token still lives) or a key deleted meanwhile sends
 * nothing: 403, before anything is stored or reserved.
 */
export async function resolveSender(directory: SenderDirectory, accountId: string, actor: MessageActor): Promise<StoredMessageSender> {
  const found =
    actor.kind === 'member'
      ? await directory.members.get(accountId, actor.id).then((m) => (m ? { id: m.personId, name: m.name || m.email } : null))
      : await directory.apiKeys.get(accountId, actor.id).then((k) => (k ? { id: k.id, name: k.name } : null));
  const sender = found ? storedSender({ kind: actor.kind, ...found }) : undefined;
  if (!sender) throw new ForbiddenError(teamMessages.forbidden);
  return sender;
}
