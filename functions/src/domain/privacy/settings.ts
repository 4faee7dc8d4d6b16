/**
 * The account's privacy settings (issue 33): what an account that never saved them gets, and how a
 * stored object is read. Notices are on by default for an EU/EEA country (EU AI Act Art. 50).
 */
import {
  DEFAULT_NOTICE_TEXTS,
  DEFAULT_RETENTION,
  DEFAULT_START_KEYWORDS,
  DEFAULT_STOP_KEYWORDS,
  noticesOnByDefault,
  privacySettingsRequest,
  type PrivacySettings,
} from '../../contract/privacy.js';

export function defaultPrivacySettings(country: string | null | undefined): PrivacySettings {
  const on = noticesOnByDefault(country);
  return {
    retention: { ...DEFAULT_RETENTION },
    notices: { ai: on, recording: on, aiText: { ...DEFAULT_NOTICE_TEXTS.ai }, recordingText: { ...DEFAULT_NOTICE_TEXTS.recording } },
    optOut: { stopKeywords: [...DEFAULT_STOP_KEYWORDS], startKeywords: [...DEFAULT_START_KEYWORDS] },
  };
}

/** A stored object read strictly: anything that is not a valid whole object reads as the defaults. */
export function readPrivacySettings(stored: unknown, country: string | null | undefined): PrivacySettings {
  const parsed = privacySettingsRequest.safeParse(stored);
  return parsed.success ? parsed.data : defaultPrivacySettings(country);
}
