/**
 * Where a person's WhatsApp conversations are found (issue 33; ACCESS-PATTERNS.md "WhatsApp:
 * conversations and messages"): their customer pointer `WACUST#{waId}` and, for a saved contact,
 * every pointer linked to it (gsi1 `USER#{a}#CONTACT#{contactId}`: a contact whose number changed
 * has two). Each pointer names every conversation of that customer (`conversationIds`, plus the
 * open one). Shared by the conversations part and the notifications part (which finds their
 * subjects while the lookup counts, before any job remembered them).
 */
import { GetCommand, type DynamoDBDocumentClient } from '../../aws/dynamo-document.js';
import type { PersonKey } from '../../../domain/privacy/ports.js';
import { userPk } from '../keys.js';
import { queryItems } from '../query-items.js';
import { contactGsi, customerSk } from '../whatsapp-customers.js';

type Item = Record<string, unknown>;

export interface CustomerPointer {
  sk: string;
  /** The customer's current conversation (the condition of the detach). */
  conversationId: string | null;
  conversationIds: string[];
}

const ID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * Remembered with the conversation ids once the pointers are detached: a later run of the same
 * job (after a yield or a crash) does not detach again, so a conversation the customer opened
 * after the detach is theirs to keep (not an id: readers of the remembered ids skip it).
 */
export const DETACHED_MARK = 'detached';

function toPointer(item: Item): CustomerPointer {
  const current = typeof item.conversationId === 'string' ? item.conversationId : null;
  const set = item.conversationIds instanceof Set ? [...(item.conversationIds as Set<unknown>)] : [];
  const ids = [...set, current].filter((id): id is string => typeof id === 'string' && ID_RE.test(id));
  return { sk: String(item.sk), conversationId: current, conversationIds: [...new Set(ids)].sort() };
}

/** The person's customer pointers (GetItem by waId, Query of the contact's links), deduplicated. */
export async function customerPointers(db: DynamoDBDocumentClient, tableName: string, person: PersonKey): Promise<CustomerPointer[]> {
  const pk = userPk(person.accountId);
  const [own, linked] = await Promise.all([
    person.waId
      ? db.send(new GetCommand({ TableName: tableName, Key: { pk, sk: customerSk(person.waId) }, ConsistentRead: true })).then((r) => r.Item ?? null)
      : null,
    person.contactId
      ? queryItems(db, {
          TableName: tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :g',
          ExpressionAttributeValues: { ':g': contactGsi(person.accountId, person.contactId) },
        })
      : [],
  ]);
  const bySk = new Map<string, Item>();
  // The index is eventually consistent: the pointer read by key wins.
  for (const item of [...linked, ...(own ? [own] : [])]) if (item.pk === pk && String(item.sk).startsWith('WACUST#')) bySk.set(String(item.sk), item);
  return [...bySk.values()].map(toPointer);
}

/** Every conversation id the pointers name. */
export const conversationIdsOf = (pointers: readonly CustomerPointer[]): string[] => [...new Set(pointers.flatMap((p) => p.conversationIds))].sort();
