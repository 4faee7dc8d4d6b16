/** Sizes and dates for the tabs, in the UI language (through the shared Intl helper). */
import { formatDate } from '../../../shared/intl';

/** Sizes as everywhere in the app (shared/intl.ts). */
export { formatBytes } from '../../../shared/intl';

/** 'May 5, 2026, 3:04 PM' style; '—' for a missing or invalid date. */
export function formatDateTime(iso: string | null | undefined, language = 'en'): string {
  return formatDate(language, iso) ?? '—';
}
