/** Sizes and dates for the tabs, in the UI language (through the shared Intl helper). */
import { formatDate, formatNumber } from '../../../shared/intl';

/** 0 B, 512 B, 1.5 KB, 12 MB (binary units, one decimal under 10). */
export function formatBytes(bytes: number, language = 'en'): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${formatNumber(language, value, { maximumFractionDigits: digits })} ${units[unit]}`;
}

/** 'May 5, 2026, 3:04 PM' style; '—' for a missing or invalid date. */
export function formatDateTime(iso: string | null | undefined, language = 'en'): string {
  return formatDate(language, iso) ?? '—';
}
