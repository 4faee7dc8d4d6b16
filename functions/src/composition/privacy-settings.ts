/**
 * GET/PUT /api/privacy/settings (issue 33): the account's retention, notices and opt-out words,
 * over the shared settings store (privacySettingsStore(): the same minute's cache the writers that
 * stamp retention read, so a change made here applies in this container at once and in the others
 * within a minute). The body is validated by the handler (privacySettingsRequest).
 *
 * A change of retention applies to what is written from then on, and a `retention` job on the
 * privacy-jobs queue re-dates what is already stored (composition/retention-restamp.ts).
 */
import type { PrivacySettings, RetentionSettings } from '../contract/privacy.js';
import { readPrivacySettings } from '../domain/privacy/settings.js';
import { retentionChanges } from '../domain/privacy/retention.js';
import { logger } from '../adapters/logger.js';
import { privacySettingsStore } from './privacy-settings-store.js';
import { queueRetentionRestamp } from './retention-restamp.js';

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
      const retentionChanged = retentionChanges(previous.retention, settings.retention);
      // What is already stored is re-dated in the background (the job reads the settings saved here).
      // The settings are saved already: a queue failure is logged (an operator re-queues it with
      // `npm run retention:stamp -- --account <id>`), not answered as a failure of the save.
      if (Object.keys(retentionChanged).length > 0) {
        await queueRetentionRestamp(accountId).catch((error: unknown) =>
          logger.error('Retention re-stamp could not be queued', { accountId, error: error as Error }),
        );
      }
      return { settings, retentionChanged };
    },
  };
}
