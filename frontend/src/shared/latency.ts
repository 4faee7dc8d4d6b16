/**
 * Response latency as the screens show it (issue 16: the call list, the call detail and the
 * dashboard): milliseconds as seconds with two decimals in the UI language, the value and its
 * unit kept together ('0.62 s' / '0,62 s'), '—' when there is none.
 */
import { formatNumber } from './intl';

export const NO_LATENCY = '—';

/** Milliseconds → seconds with two decimals: 620 → '0.62 s' ('0,62 s' in Spanish); not a number → '—'. */
export function formatLatency(ms: number | null | undefined, language: string): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return NO_LATENCY;
  return `${formatNumber(language, ms / 1000, { minimumFractionDigits: 2, maximumFractionDigits: 2 })}\u00a0s`;
}
