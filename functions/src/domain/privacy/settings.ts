/**
 * The account's privacy settings (issue 33): what an account that never saved them gets, and how a
 * stored object is read. Notices are on by default for an EU/EEA country (EU AI Act Art. 50).
 *
 * The stored object is read by hand, not with the zod schema: the writers of messages and calls
 * read it on their hot path, and the voice webhook (a first-contact bundle, 300 KB) would carry
 * the request schema and zod's union/literal/refine machinery for it. The reader accepts exactly
 * what privacySettingsRequest accepts (texts and keywords trimmed the same way); a unit test holds
 * the two together (test/unit/privacy/stored-settings.test.ts). The PUT body keeps the schema.
 */
import {
  DEFAULT_NOTICE_TEXTS,
  DEFAULT_RETENTION,
  DEFAULT_START_KEYWORDS,
  DEFAULT_STOP_KEYWORDS,
  foldKeyword,
  NOTICE_TEXT_MAX,
  noticesOnByDefault,
  OPT_OUT_KEYWORD_MAX_LENGTH,
  OPT_OUT_KEYWORDS_MAX,
  RETENTION_DAY_CHOICES,
  RETENTION_KINDS,
  type NoticeLanguage,
  type PrivacySettings,
  type RetentionDays,
  type RetentionSettings,
} from '../../contract/privacy.js';

export function defaultPrivacySettings(country: string | null | undefined): PrivacySettings {
  const on = noticesOnByDefault(country);
  return {
    retention: { ...DEFAULT_RETENTION },
    notices: { ai: on, recording: on, aiText: { ...DEFAULT_NOTICE_TEXTS.ai }, recordingText: { ...DEFAULT_NOTICE_TEXTS.recording } },
    optOut: { stopKeywords: [...DEFAULT_STOP_KEYWORDS], startKeywords: [...DEFAULT_START_KEYWORDS] },
  };
}

/** An object with exactly these own keys (a strict object), else null. */
function exactly<K extends string>(value: unknown, keys: readonly K[]): Record<K, unknown> | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((k) => Object.hasOwn(value, k)) ? (value as Record<K, unknown>) : null;
}

/** A string trimmed, of 1 to `max` characters after trimming, else null. */
const trimmed = (value: unknown, max: number): string | null => {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text.length >= 1 && text.length <= max ? text : null;
};

function texts(value: unknown): Record<NoticeLanguage, string> | null {
  const o = exactly(value, ['en', 'es'] as const);
  const en = o && trimmed(o.en, NOTICE_TEXT_MAX);
  const es = o && trimmed(o.es, NOTICE_TEXT_MAX);
  return en && es ? { en, es } : null;
}

function keywords(value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length < 1 || value.length > OPT_OUT_KEYWORDS_MAX) return null;
  const out = value.map((k) => trimmed(k, OPT_OUT_KEYWORD_MAX_LENGTH));
  return out.every((k) => k !== null) ? (out as string[]) : null;
}

/** A stored (or submitted) settings object as privacySettingsRequest reads it, or null when the schema would refuse it. */
export function parseStoredPrivacySettings(stored: unknown): PrivacySettings | null {
  const whole = exactly(stored, ['retention', 'notices', 'optOut'] as const);
  if (!whole) return null;
  const r = exactly(whole.retention, RETENTION_KINDS);
  if (!r || !RETENTION_KINDS.every((kind) => (RETENTION_DAY_CHOICES as readonly unknown[]).includes(r[kind]))) return null;
  const n = exactly(whole.notices, ['ai', 'recording', 'aiText', 'recordingText'] as const);
  if (!n || typeof n.ai !== 'boolean' || typeof n.recording !== 'boolean') return null;
  const aiText = texts(n.aiText);
  const recordingText = texts(n.recordingText);
  const o = exactly(whole.optOut, ['stopKeywords', 'startKeywords'] as const);
  const stopKeywords = o && keywords(o.stopKeywords);
  const startKeywords = o && keywords(o.startKeywords);
  if (!aiText || !recordingText || !stopKeywords || !startKeywords) return null;
  const stop = new Set(stopKeywords.map(foldKeyword));
  if (startKeywords.some((k) => stop.has(foldKeyword(k)))) return null;
  const retention = Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, r[kind] as RetentionDays])) as RetentionSettings;
  return { retention, notices: { ai: n.ai, recording: n.recording, aiText, recordingText }, optOut: { stopKeywords, startKeywords } };
}

/** A stored object read strictly: anything that is not a valid whole object reads as the defaults. */
export function readPrivacySettings(stored: unknown, country: string | null | undefined): PrivacySettings {
  return parseStoredPrivacySettings(stored) ?? defaultPrivacySettings(country);
}
