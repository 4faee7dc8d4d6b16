/**
 * The inbox for a team (issue 32): the account's members the assign control lists ("Me" first,
 * then the others by name), who a conversation is assigned to, and who sent a person's message.
 * Pure functions over the contract's views; the members come from GET /api/team (useTeamMembers).
 */
import { useQuery } from '@tanstack/react-query';
import type { ConversationMessage, Member } from '@agentdesk/functions/contract';
import { teamApi, teamKeys } from '../../../api/team';

export interface AssigneeOption {
  _id: string;
  name: string;
  me: boolean;
}

/** The assign control's people: the caller first ("Me"), then the other members by name in the UI's language. */
export function assigneeOptions(members: readonly Member[], meId: string, locale: string): AssigneeOption[] {
  const others = members
    .filter((m) => m._id !== meId)
    .map((m) => ({ _id: m._id, name: m.name || m.email, me: false }))
    .sort((a, b) => a.name.localeCompare(b.name, locale, { sensitivity: 'base' }));
  const me = members.find((m) => m._id === meId);
  return [{ _id: meId, name: me ? me.name || me.email : '', me: true }, ...others];
}

/**
 * Who a conversation is assigned to, as the header says it: nobody, the caller, a member by name,
 * someone else while the members are not loaded (yet, or the list failed), or someone the loaded
 * list no longer has (removed from the team).
 */
export type AssigneeShown = { kind: 'nobody' } | { kind: 'me' } | { kind: 'member'; name: string } | { kind: 'someone' } | { kind: 'gone' };

export function assigneeShown(assignee: string | null, meId: string, members: readonly Member[] | undefined): AssigneeShown {
  if (!assignee) return { kind: 'nobody' };
  if (assignee === meId) return { kind: 'me' };
  if (!members) return { kind: 'someone' };
  const found = members.find((m) => m._id === assignee);
  return found ? { kind: 'member', name: found.name || found.email } : { kind: 'gone' };
}

/**
 * The sender line of one of our messages: the member who sent it (their name as of sending), the
 * API key an external system used, the agent, or — for a person's message from before issue 32 —
 * the team. The i18n key under `inbox.sender` / `conversations.modal`, and the name.
 */
export function senderLabel(message: Pick<ConversationMessage, 'fromMe' | 'sentBy' | 'sender'>): { key: string; name?: string } {
  if (!message.fromMe) return { key: 'conversations.modal.customer' };
  if (message.sentBy !== 'human') return { key: 'conversations.modal.fromAgent' };
  const sender = message.sender;
  if (!sender?.name) return { key: 'conversations.modal.fromHuman' };
  return sender.kind === 'apiKey' ? { key: 'inbox.sender.apiKey', name: sender.name } : { key: 'inbox.sender.member', name: sender.name };
}

/** The account's members and the caller's own id (GET /api/team, the team page's query): read again whenever a conversation opens, so someone who just joined is listed. */
export function useTeamMembers() {
  return useQuery({ queryKey: teamKeys.view, queryFn: ({ signal }) => teamApi.get(signal) });
}
