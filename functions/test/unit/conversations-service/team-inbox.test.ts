/**
 * The inbox for a team (issue 32) over in-memory ports: a conversation is assigned to any active
 * member of the account (else 400, nothing changed), "Mine" is the person's, and a person's
 * message stores who sent it (a member, an API key), refused for someone no longer active.
 */
import { describe, expect, it } from 'vitest';
import { teamMessages } from '../../../src/contract/team.js';
import { MESSAGE_SENDER_NAME_MAX, whatsappMessages } from '../../../src/contract/whatsapp.js';
import { storedSender, type SenderDirectory } from '../../../src/domain/conversations/sender.js';
import { toConversationMessage, toMessage } from '../../../src/domain/conversations/message-view.js';
import type { MemberRecord } from '../../../src/domain/team/ports.js';
import { conversation, hoursAgo, message, setup } from './fakes.js';

const ACCOUNT = 'acct-owner';
const LUCIA = 'person-lucia';
const OTHER_ACCOUNT = 'acct-other';
const STRANGER = 'person-stranger';

const member = (personId: string, accountId: string, name: string): MemberRecord => ({
  personId,
  accountId,
  role: personId === accountId ? 'owner' : 'agent',
  name,
  email: `${personId}@example.es`,
  language: 'es',
  joinedAt: hoursAgo(48),
});

/** Two accounts: the clinic (owner + Lucía) and another (a stranger); one API key of the clinic. */
function directory(): SenderDirectory & { removed: Set<string> } {
  const people = [member(ACCOUNT, ACCOUNT, 'Marta Dueña'), member(LUCIA, ACCOUNT, 'Lucía Martín'), member(STRANGER, OTHER_ACCOUNT, 'Extraño')];
  const removed = new Set<string>();
  return {
    removed,
    members: {
      get: async (accountId, personId) => people.find((p) => p.accountId === accountId && p.personId === personId && !removed.has(personId)) ?? null,
    },
    apiKeys: { get: async (accountId, id) => (accountId === ACCOUNT && id === 'key-crm' ? { id, name: 'CRM de la clínica' } : null) },
  };
}

describe('assignment to a member (issue 32)', () => {
  it('assigns to another active member and back to nobody; the owner too', async () => {
    const { service, conversations } = setup({ senders: directory() });
    const conv = conversations.seed(ACCOUNT, conversation());

    expect((await service.update(ACCOUNT, conv.id, { assignee: LUCIA })).assignee).toBe(LUCIA);
    expect((await service.update(ACCOUNT, conv.id, { assignee: ACCOUNT })).assignee).toBe(ACCOUNT);
    expect((await service.update(ACCOUNT, conv.id, { assignee: null })).assignee).toBeNull();
  });

  it('refuses another account’s person, a removed member and an unknown id: 400, nothing changed', async () => {
    const senders = directory();
    const { service, conversations } = setup({ senders });
    const conv = conversations.seed(ACCOUNT, conversation({ assignee: ACCOUNT, notes: 'antes' }));
    senders.removed.add(LUCIA);

    for (const assignee of [STRANGER, OTHER_ACCOUNT, LUCIA, 'nadie']) {
      await expect(service.update(ACCOUNT, conv.id, { assignee, notes: 'después' }), assignee).rejects.toMatchObject({
        status: 400,
        message: whatsappMessages.assigneeInvalid,
      });
    }
    expect(await conversations.get(ACCOUNT, conv.id)).toMatchObject({ assignee: ACCOUNT, notes: 'antes' });
  });

  it('without a member directory, only the account’s owner may be assigned', async () => {
    const { service, conversations } = setup();
    const conv = conversations.seed(ACCOUNT, conversation());
    expect((await service.update(ACCOUNT, conv.id, { assignee: ACCOUNT })).assignee).toBe(ACCOUNT);
    await expect(service.update(ACCOUNT, conv.id, { assignee: LUCIA })).rejects.toMatchObject({ status: 400 });
  });

  it('"me" is the person: the board and the list show the caller’s own, not the account’s', async () => {
    const { service, conversations } = setup({ senders: directory() });
    const hers = conversations.seed(ACCOUNT, conversation({ assignee: LUCIA }));
    const owners = conversations.seed(ACCOUNT, conversation({ assignee: ACCOUNT }));
    conversations.seed(ACCOUNT, conversation({ assignee: null }));
    // The memory repository filters like the DynamoDB one (assignee = :id).
    const memory = conversations as unknown as { page: (u: string, i: { assignee?: string | null }) => Promise<{ items: { id: string; assignee?: string | null }[] }> };
    const page = memory.page.bind(conversations);
    memory.page = async (u, i) => {
      const { items } = await page(u, i);
      const kept = i.assignee === undefined ? items : items.filter((c) => (c.assignee ?? null) === i.assignee);
      return { items: kept, total: kept.length } as never;
    };

    const mine = await service.list(ACCOUNT, { search: '', page: 1, limit: 50, assignee: 'me' }, LUCIA);
    expect(mine.data.map((c) => c._id)).toEqual([hers.id]);
    const ownerMine = await service.list(ACCOUNT, { search: '', page: 1, limit: 50, assignee: 'me' });
    expect(ownerMine.data.map((c) => c._id)).toEqual([owners.id]);
  });
});

describe('who sent a person’s message (issue 32)', () => {
  it('a member’s reply stores them with their name as of sending; the views show it', async () => {
    const { service, conversations, messages } = setup({ senders: directory() });
    const conv = conversations.seed(ACCOUNT, conversation({ lastInboundAt: hoursAgo(2) }));

    const reply = await service.reply(ACCOUNT, conv.id, 'Te esperamos a las 10', undefined, { kind: 'member', id: LUCIA });

    expect(reply.sender).toEqual({ kind: 'member', _id: LUCIA, name: 'Lucía Martín' });
    expect(messages.all(ACCOUNT)[0]).toMatchObject({ sentBy: 'human', sender: { kind: 'member', id: LUCIA, name: 'Lucía Martín' } });
  });

  it('an API key’s reply stores the key and its name', async () => {
    const { service, conversations, messages } = setup({ senders: directory() });
    const conv = conversations.seed(ACCOUNT, conversation({ lastInboundAt: hoursAgo(2) }));

    const reply = await service.reply(ACCOUNT, conv.id, 'Cita confirmada', undefined, { kind: 'apiKey', id: 'key-crm' });

    expect(reply.sender).toEqual({ kind: 'apiKey', _id: 'key-crm', name: 'CRM de la clínica' });
    expect(messages.all(ACCOUNT)[0]?.sender).toEqual({ kind: 'apiKey', id: 'key-crm', name: 'CRM de la clínica' });
  });

  it('a member removed meanwhile, another account’s person or a deleted key: 403, nothing stored, sent or counted', async () => {
    const senders = directory();
    const { service, conversations, messages, graph, usage } = setup({ senders });
    const conv = conversations.seed(ACCOUNT, conversation({ lastInboundAt: hoursAgo(2) }));
    senders.removed.add(LUCIA);

    for (const actor of [{ kind: 'member', id: LUCIA }, { kind: 'member', id: STRANGER }, { kind: 'apiKey', id: 'key-gone' }] as const) {
      await expect(service.reply(ACCOUNT, conv.id, 'Hola', undefined, actor), actor.id).rejects.toMatchObject({ status: 403, message: teamMessages.forbidden });
    }
    expect(messages.all(ACCOUNT)).toEqual([]);
    expect(graph.sent).toEqual([]);
    expect(usage.used).toBe(0);
  });

  it('a stored sender is read strictly: a malformed one never reaches a view, a long name is cut', () => {
    const conv = conversation();
    for (const bad of [{ kind: 'admin', id: LUCIA, name: 'X' }, { kind: 'member', id: 'a b', name: 'X' }, { kind: 'member', id: LUCIA }, 'Lucía', null]) {
      const m = message(conv, { fromMe: true, sentBy: 'human', sender: bad as never });
      expect(toConversationMessage(m).sender, JSON.stringify(bad)).toBeUndefined();
      expect(toMessage(m).sender).toBeUndefined();
    }
    expect(storedSender({ kind: 'member', id: LUCIA, name: `  ${'Á'.repeat(500)}  ` })?.name).toHaveLength(MESSAGE_SENDER_NAME_MAX);
    const ok = message(conv, { fromMe: true, sentBy: 'human', sender: { kind: 'member', id: LUCIA, name: 'Lucía Martín' } });
    expect(toMessage(ok).sender).toEqual({ kind: 'member', _id: LUCIA, name: 'Lucía Martín' });
  });
});
