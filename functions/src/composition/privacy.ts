/** PLACEHOLDER (issue 33, helper "privacy-core" replaces this file): wires domain/privacy/service.ts. */
import type { PersonDataInventory, PersonRefRequest, PrivacyJobPage, PrivacyJobView } from '../contract/privacy.js';

export type RequestActor = { kind: 'member'; id: string } | { kind: 'apiKey'; id: string };
export interface PrivacyApi {
  lookup(accountId: string, person: PersonRefRequest): Promise<PersonDataInventory>;
  erase(accountId: string, actor: RequestActor, person: PersonRefRequest): Promise<PrivacyJobView>;
  export(accountId: string, actor: RequestActor, person: PersonRefRequest): Promise<PrivacyJobView>;
  jobs(accountId: string, cursor: string | null): Promise<PrivacyJobPage>;
  job(accountId: string, jobId: string): Promise<PrivacyJobView>;
}
export function privacyService(): PrivacyApi {
  throw new Error('privacy service not built yet');
}
