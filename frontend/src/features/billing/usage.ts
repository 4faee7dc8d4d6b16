/**
 * Usage display rules (SPEC §9): a limit of -1 is unlimited (∞, no bar); from 80 % the bar is
 * yellow with 'Approaching limit…', from 100 % red with 'Limit exceeded!…'; below 80 % the
 * remaining percentage shows. Numbers are abbreviated with K and M.
 */
import { NEAR_LIMIT_PERCENT, UNLIMITED } from '@agentdesk/functions/contract';

export const INFINITY_SIGN = '∞';

/** 999 → '999', 1000 → '1K', 1500 → '1.5K', 2_345_678 → '2.3M' (one decimal, trailing .0 dropped). */
export function formatCompact(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  const oneDecimal = (n: number) => {
    const rounded = Math.round(n * 10) / 10;
    return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
  };
  if (abs >= 1_000_000) return `${sign}${oneDecimal(abs / 1_000_000)}M`;
  if (abs >= 1_000) {
    // 999_950 would round to '1000K': show it as millions instead.
    const k = oneDecimal(abs / 1_000);
    return k === '1000' ? `${sign}1M` : `${sign}${k}K`;
  }
  return `${sign}${oneDecimal(abs)}`;
}

/** The limit as shown: ∞ for unlimited, else abbreviated. */
export function formatLimit(limit: number): string {
  return limit === UNLIMITED ? INFINITY_SIGN : formatCompact(limit);
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
