/**
 * Contacts helpers for the integration tests: a registered user with an active subscription
 * written straight into the table (no Stripe round trip; the usage primitive only reads the
 * subscription item), and typed calls of the contacts API.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { PlanId } from '../../src/contract/billing.js';
import type { Contact, ContactListResponse, CreateContactInput } from '../../src/contract/contacts.js';
import { api, db, get, post, registerUser, tableName, type ApiResponse } from './api.js';
import { grantSubscription } from './billing.js';

export interface ContactsUser {
  token: string;
  userId: string;
}

/** Registers a user and gives them an active subscription on `plan` (enterprise = unlimited contacts). */
export async function activeUser(plan: PlanId = 'enterprise'): Promise<ContactsUser> {
  const { session } = await registerUser();
  const userId = session.user._id;
  await grantSubscription(userId, { plan });
  return { token: session.token, userId };
}

/** Sets the user's contacts usage counter (to test the plan limit without creating hundreds). */
export const setContactsUsage = (userId: string, count: number) =>
  db().send(new PutCommand({ TableName: tableName(), Item: { pk: `USER#${userId}`, sk: 'USAGE#CONTACTS', entity: 'usage', count } }));

export const createContact = (token: string, body: CreateContactInput | Record<string, unknown>) =>
  post<Contact>('/api/contacts', body, token);

/** Creates a contact and returns it (fails the test when the API refuses). */
export async function addContact(token: string, body: CreateContactInput | Record<string, unknown>): Promise<Contact> {
  const res = await createContact(token, body);
  if (res.status !== 201 || !res.body.data) throw new Error(`create contact failed: ${res.status} ${res.body.message}`);
  return res.body.data;
}

export async function listContacts(token: string, query: Record<string, string | number> = {}) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return get<Contact[]>(`/api/contacts${qs ? `?${qs}` : ''}`, token) as Promise<
    ApiResponse<Contact[]> & { body: Partial<ContactListResponse> }
  >;
}

export const putContact = (token: string, id: string, body: unknown) => api<Contact>('PUT', `/api/contacts/${id}`, { body, token });
export const deleteContact = (token: string, id: string) => api('DELETE', `/api/contacts/${id}`, { token });
