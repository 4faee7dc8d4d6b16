/**
 * The AI and recording notices (issue 33, EU AI Act Art. 50): the account's wording in the
 * agent's (or the call's) language, `{business}` replaced by the business's name. Types only from
 * the contract: the first-contact bundles (the voice webhook) load no schema through this module.
 */
import type { NoticeLanguage, NoticeSettings, OptOutSettings } from '../../contract/privacy.js';

/** What the notices and the opt-out words of an account are, read once per reply or call (composition/privacy-notices.ts). */
export interface AccountNotices {
  notices: NoticeSettings;
  optOut: OptOutSettings;
  /** The business's name (its location's), else the account's name; '' when neither is known. */
  business: string;
}

export type AccountNoticesReader = (accountId: string) => Promise<AccountNotices>;

/** 'es', 'es-ES', 'es-419' → es; anything else → en. */
export const noticeLanguage = (language: string | null | undefined): NoticeLanguage => ((language ?? '').toLowerCase().startsWith('es') ? 'es' : 'en');

export function noticeText(texts: Record<NoticeLanguage, string>, language: string | null | undefined, business: string): string {
  const text = texts[noticeLanguage(language)];
  // No name known: the placeholder goes with the word before it ("…de {business}." → "…."), never shown raw.
  return (business ? text.replaceAll('{business}', business) : text.replace(/\s*\S*\s*\{business\}/g, '')).trim();
}

/** The AI notice of the first agent message or a call's greeting, or null when the account turned it off. */
export function aiNotice(account: AccountNotices | null, language: string | null | undefined): string | null {
  return account?.notices.ai ? noticeText(account.notices.aiText, language, account.business) : null;
}

/** A recorded call's first words, or null. */
export function recordingNotice(account: AccountNotices | null, recorded: boolean, language: string | null | undefined): string | null {
  return recorded && account?.notices.recording ? noticeText(account.notices.recordingText, language, account.business) : null;
}

/** The message with the notice first (a blank line between), or the message alone. */
export const withNotice = (notice: string | null, message: string): string => (notice ? (message ? `${notice}\n\n${message}` : notice) : message);
