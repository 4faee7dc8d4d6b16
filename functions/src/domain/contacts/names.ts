/**
 * Names stay true (issue 17): calls, conversations and the dashboard's recent activity name their
 * customer by the linked contact's CURRENT directory entry, resolved when they are read (one
 * BatchGetItem of the distinct contacts of a page) instead of copying a name into every call and
 * conversation when a contact is renamed (a fan-out that grows with the contact's history).
 */

/** A contact as a call or conversation shows it. */
export interface ContactName {
  id: string;
  name: string;
  phoneNumber: string;
}

export interface ContactNameLookup {
  /** Current entries of these contact ids (deleted contacts are absent). */
  byId: Map<string, ContactName>;
  /** The contacts holding these E.164 numbers now (a customer saved as a contact after the call). */
  byPhone: Map<string, ContactName>;
}

export interface ContactNames {
  lookup(userId: string, query: { ids: readonly string[]; phones?: readonly string[] }): Promise<ContactNameLookup>;
}

export const emptyContactNames = (): ContactNameLookup => ({ byId: new Map(), byPhone: new Map() });

/** Distinct non-empty strings (ids or phones) of a page. */
export function distinct(values: Iterable<string | null | undefined>): string[] {
  return [...new Set([...values].filter((v): v is string => typeof v === 'string' && v !== ''))];
}
