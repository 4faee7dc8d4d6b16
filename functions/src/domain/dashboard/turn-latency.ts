/**
 * The dashboard's median turn latency (issue 16). A finished streamed call ADDs its agent turns'
 * first-token latencies to a histogram of fixed buckets on its UTC day's counter item (ports.ts),
 * so the turns of any set of days merge by summing counts: the median of a period reads no call.
 *
 * Per UTC day, not per hour like the other counters: hourly buckets made a busy user's day items
 * 3–4× larger and every dashboard read (the voice trends too) ~2.4× slower in the bench, for a
 * figure a few hours barely move. The UTC day whose 12:00 falls in a local day stands for it
 * (service.ts), so a period's turns are its calls' up to |offset| hours at each end.
 *
 * Buckets (ms) include their upper bound and are named by it: (0,25], (25,50] … (1975,2000]
 * every 25 ms; (2000,2100] … (9900,10000] every 100 ms; 'x' = over 10 s ('0' = ≤ 0). 161 in all,
 * and a call only writes the buckets its turns fall in.
 *
 * Median: the nearest-rank rule of voice/latency.ts (the rank ⌈N/2⌉ turn, as the call list's p50)
 * over the bucket counts, reported as the UPPER BOUND of the bucket holding that turn. Not an
 * interpolation: spreading a bucket's turns evenly invents precision the counts do not have,
 * while the upper bound is exact for values on the grid, never reads faster than the calls were,
 * and is at most one bucket (25 ms below 2 s) slow. A median in the overflow reads 10,000.
 */

export const FINE_STEP_MS = 25;
export const FINE_LIMIT_MS = 2000;
export const COARSE_STEP_MS = 100;
export const OVERFLOW_FROM_MS = 10_000;
export const OVERFLOW_BUCKET = 'x';

/** Turns per bucket (bucket name → count). */
export type LatencyHistogram = Record<string, number>;

/** The bucket of one latency (ms). */
export function latencyBucket(ms: number): string {
  if (ms > OVERFLOW_FROM_MS) return OVERFLOW_BUCKET;
  if (ms <= 0) return '0';
  const step = ms <= FINE_LIMIT_MS ? FINE_STEP_MS : COARSE_STEP_MS;
  return String(Math.ceil(ms / step) * step);
}

/** The histogram of some latencies (non-finite values are left out). */
export function latencyHistogram(values: readonly number[]): LatencyHistogram {
  const out: LatencyHistogram = {};
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    const b = latencyBucket(v);
    out[b] = (out[b] ?? 0) + 1;
  }
  return out;
}

/** A bucket's upper bound in ms (the overflow: its lower bound); NaN for a name that is no bucket. */
export function bucketUpperMs(bucket: string): number {
  if (bucket === OVERFLOW_BUCKET) return OVERFLOW_FROM_MS;
  return /^\d+$/.test(bucket) ? Number(bucket) : Number.NaN;
}

/** The median first-token latency and the number of turns; null without any turn. */
export function histogramMedian(histogram: LatencyHistogram): { medianMs: number; turns: number } | null {
  const buckets = Object.entries(histogram)
    .filter(([b, n]) => n > 0 && !Number.isNaN(bucketUpperMs(b)))
    // The overflow sorts last although it reads 10,000 like the (9900,10000] bucket.
    .map(([b, n]) => ({ order: b === OVERFLOW_BUCKET ? Infinity : bucketUpperMs(b), ms: bucketUpperMs(b), n }))
    .sort((a, b) => a.order - b.order);
  const turns = buckets.reduce((sum, b) => sum + b.n, 0);
  if (turns === 0) return null;
  const rank = Math.max(1, Math.ceil(turns / 2));
  let seen = 0;
  for (const b of buckets) {
    seen += b.n;
    if (seen >= rank) return { medianMs: b.ms, turns };
  }
  return { medianMs: buckets.at(-1)!.ms, turns };
}

export const LATENCY_PREFIX = 'lt';
/**
 * Counter attribute of one bucket on the ACT# day item: `lt{HH}_{bucket}`, the turns of the calls
 * started in that UTC hour — so a day in any whole-hour zone sums exactly its 24 hours, like the
 * other metrics. Items written before hours were kept carry `lt_{bucket}` for the whole UTC day.
 */
export const latencyAttribute = (bucket: string, hour: string) => `${LATENCY_PREFIX}${hour}_${bucket}`;
/** The bucket and UTC hour (null: a whole-day attribute) of a counter attribute written by latencyAttribute, else null. */
export function parseLatencyAttribute(attr: string): { bucket: string; hour: number | null } | null {
  const found = /^lt(\d{2})?_(.+)$/.exec(attr);
  if (!found) return null;
  const hour = found[1] === undefined ? null : Number(found[1]);
  if (hour !== null && hour > 23) return null;
  const bucket = found[2]!;
  return Number.isNaN(bucketUpperMs(bucket)) ? null : { bucket, hour };
}
