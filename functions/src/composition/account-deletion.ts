/** PLACEHOLDER (issue 33, helper "account deletion" replaces this file). */
export interface AccountDeletionApi {
  /** Check the caller is the owner, record the request and queue the deletion job. */
  request(accountId: string, personId: string): Promise<void>;
}
export function accountDeletionService(): AccountDeletionApi {
  throw new Error('account deletion not built yet');
}

/**
 * PLACEHOLDER added by "privacy-core" (the privacy-jobs worker's dispatch needs it): the
 * account-deletion helper replaces it with the runner of an `accountDeletion` job.
 */
export interface AccountDeletionWorker {
  run(job: { kind: 'accountDeletion'; accountId: string; resume?: number | undefined }, startedAtMs: number): Promise<void>;
}
export function accountDeletionWorker(): AccountDeletionWorker {
  throw new Error('account deletion worker not built yet');
}
