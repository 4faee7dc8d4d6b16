/** PLACEHOLDER (issue 33, helper "retention" replaces this file). */
import type { PrivacySettings } from '../contract/privacy.js';

export interface PrivacySettingsApi {
  get(accountId: string): Promise<PrivacySettings>;
  put(accountId: string, settings: PrivacySettings): Promise<PrivacySettings>;
}
export function privacySettingsService(): PrivacySettingsApi {
  throw new Error('privacy settings not built yet');
}
