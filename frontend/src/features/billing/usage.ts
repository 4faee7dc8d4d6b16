/**
 * Usage display rules (SPEC §9): a limit of -1 is unlimited (∞, no bar); from 80 % the bar is
 * yellow with 'Approaching limit…', from 100 % red with 'Limit exceeded!…'; below 80 % the
 * remaining percentage shows. Numbers are abbreviated with K and M (Intl compact: 'mil' and 'M' in Spanish).
 */
import { NEAR_LIMIT_PERCENT, UNLIMITED } from '@agentdesk/functions/contract';
import { formatNumber } from '../../shared/intl';

export const INFINITY_SIGN = '∞';

/** 999 → '999', 1000 → '1K', 1500 → '1.5K' ('1,5 mil' in Spanish), 2_345_678 → '2.3M' (Intl compact, one decimal at most). */
export function formatCompact(value: number, language = 'en'): string {
  if (!Number.isFinite(value)) return String(value);
  return formatNumber(language, value, { notation: 'compact', maximumFractionDigits: 1 });
}

/** The limit as shown: ∞ for unlimited, else abbreviated. */
export function formatLimit(limit: number, language = 'en'): string {
  return limit === UNLIMITED ? INFINITY_SIGN : formatCompact(limit, language);
}

export type UsageLevel = 'unlimited' | 'normal' | 'warning' | 'exceeded';

export interface UsageMeter {
  level: UsageLevel;
  /** Percentage used (may exceed 100), one decimal; null when unlimited. */
  percent: number | null;
  /** The bar's fill, 0..100; null when unlimited (no bar). */
  barValue: number | null;
  /** Percentage left, one decimal, never below 0; null when unlimited. */
  remainingPercent: number | null;
  /** MUI colour of the bar. */
  color: 'primary' | 'warning' | 'error';
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * How one metric's usage is shown. `utilization` (the server's percentage) wins when given;
 * otherwise it is used/limit. A limit of 0 with no usage counts as 0 %, with usage as exceeded.
 */
export function usageMeter(used: number, limit: number, utilization?: number | null, nearLimitPercent = NEAR_LIMIT_PERCENT): UsageMeter {
  if (limit === UNLIMITED || limit < 0) {
    return { level: 'unlimited', percent: null, barValue: null, remainingPercent: null, color: 'primary' };
  }
  let percent: number;
  if (typeof utilization === 'number' && Number.isFinite(utilization)) percent = utilization;
  else if (limit === 0) percent = used > 0 ? 100 : 0;
  else percent = (used / limit) * 100;
  percent = round1(Math.max(percent, 0));
  const level: UsageLevel = percent >= 100 ? 'exceeded' : percent >= nearLimitPercent ? 'warning' : 'normal';
  return {
    level,
    percent,
    barValue: Math.min(percent, 100),
    remainingPercent: round1(Math.max(100 - percent, 0)),
    color: level === 'exceeded' ? 'error' : level === 'warning' ? 'warning' : 'primary',
  };
}
