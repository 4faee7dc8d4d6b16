/**
 * Reading Meta's webhook JSON without trusting its shape: unknown or missing parts read as empty,
 * so a field Meta adds or drops never throws. Used by the webhook (splitting deliveries) and the
 * inbound worker (parsing them).
 */
export type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
