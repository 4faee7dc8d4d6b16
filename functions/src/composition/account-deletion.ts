/** PLACEHOLDER (issue 33, helper "account deletion" replaces this file). */
export interface AccountDeletionApi {
  /** Check the caller is the owner, record the request and queue the deletion job. */
  request(accountId: string, personId: string): Promise<void>;
}
export function accountDeletionService(): AccountDeletionApi {
  throw new Error('account deletion not built yet');
}
