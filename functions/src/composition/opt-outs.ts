/** PLACEHOLDER (issue 33, helper "notices and opt-outs" replaces this file). */
import type { OptOutState, PersonRefRequest } from '../contract/privacy.js';

export interface OptOutApi {
  setByOwner(accountId: string, person: PersonRefRequest, optedOut: boolean): Promise<{ phoneNumber: string; optOut: OptOutState | null }>;
}
export function optOutService(): OptOutApi {
  throw new Error('opt-outs not built yet');
}
