/**
 * GET/PUT /api/privacy/settings (issue 33): the account's retention, notices and opt-out words,
 * over the shared settings store (privacySettingsStore(): the same minute's cache the writers that
 * stamp retention read, so a change made here applies in this container at once and in the others
 * within a minute). The body is validated by the handler (privacySettingsRequest).
 *
 * A change of retention applies to what is written from then on; what is already stored keeps the
 * expiry it was written with (contract/privacy.ts retentionChangeNotice says so to the owner).
 */
import type { PrivacySettings, RetentionSettings } from '../contract/privacy.js';
import { readPrivacySettings } from '../domain/privacy/settings.js';
import { retentionChanges } from '../domain/privacy/retention.js';
import { privacySettingsStore } from './privacy-settings-store.js';

export interface PrivacySettingsApi {
  get(accountId: string): Promise<PrivacySettings>;
  /** Saves the whole object; `retentionChanged`: the kinds whose days changed, with their new days (the activity log's details). */
  put(accountId: string, settings: PrivacySettings): Promise<{ settings: PrivacySettings; retentionChanged: Partial<RetentionSettings> }>;
}

export function privacySettingsService(): PrivacySettingsApi {
  const store = privacySettingsStore();
  return {
    get: (accountId) => store.get(accountId),
    async put(accountId, settings) {
      const before = await store.put(accountId, settings);
      // Nothing saved before: the defaults' retention (the country only changes the notices).
      const previous = before ?? readPrivacySettings(undefined, null);
      return { settings, retentionChanged: retentionChanges(previous.retention, settings.retention) };
    },
  };
}
