/**
 * The privacy page's form (issue 33), without React: the opt-out word lists' checks (the server's
 * own, said before Save: length, count, a word in both lists, compared as the server folds them) and
 * the notices' lengths.
 */
import { NOTICE_TEXT_MAX, OPT_OUT_KEYWORD_MAX_LENGTH, OPT_OUT_KEYWORDS_MAX, foldKeyword, type PrivacySettings } from '@agentdesk/functions/contract';

export type WordList = 'stopKeywords' | 'startKeywords';

/** Why `word` cannot join `list` (an i18n key under privacy.optOut), or null when it can. */
export function wordProblem(settings: PrivacySettings, list: WordList, word: string): 'tooLong' | 'full' | 'duplicate' | null {
  const trimmed = word.trim();
  if (trimmed.length > OPT_OUT_KEYWORD_MAX_LENGTH) return 'tooLong';
  if (settings.optOut[list].length >= OPT_OUT_KEYWORDS_MAX) return 'full';
  const folded = foldKeyword(trimmed);
  const all = [...settings.optOut.stopKeywords, ...settings.optOut.startKeywords].map(foldKeyword);
  return all.includes(folded) ? 'duplicate' : null;
}

export function addWord(settings: PrivacySettings, list: WordList, word: string): PrivacySettings {
  return { ...settings, optOut: { ...settings.optOut, [list]: [...settings.optOut[list], word.trim()] } };
}

export function removeWord(settings: PrivacySettings, list: WordList, word: string): PrivacySettings {
  return { ...settings, optOut: { ...settings.optOut, [list]: settings.optOut[list].filter((w) => w !== word) } };
}

/** A notice's text problem (an i18n key under privacy.notices), or null. */
export function noticeProblem(text: string): 'required' | 'tooLong' | null {
  const length = text.trim().length;
  if (length === 0) return 'required';
  return length > NOTICE_TEXT_MAX ? 'tooLong' : null;
}

/** Whether the form can be saved as it is (the server checks again). */
export function settingsValid(s: PrivacySettings): boolean {
  const texts = [s.notices.aiText.en, s.notices.aiText.es, s.notices.recordingText.en, s.notices.recordingText.es];
  return texts.every((text) => noticeProblem(text) === null) && s.optOut.stopKeywords.length > 0 && s.optOut.startKeywords.length > 0;
}
