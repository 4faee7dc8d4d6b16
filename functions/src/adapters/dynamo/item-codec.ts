/**
 * Item ⇄ record mapping shared by the adapters. Records are written as `{ keys, entity, ...record }`
 * (their shape checked by the domain's types and the contract's schemas before they get here);
 * reading back is either declarative (itemCodec: one reader per field, tolerant of missing or
 * mistyped attributes from older items) or a pass-through minus the key attributes (withoutKeys).
 */
type Item = Record<string, unknown>;
type Reader<V> = (value: unknown) => V;

/** '' unless a string. */
export const str: Reader<string> = (v) => (typeof v === 'string' ? v : '');
/** A number (numeric strings too), else 0. */
export const num: Reader<number> = (v) => (typeof v === 'number' ? v : Number(v ?? 0) || 0);
/** String(value), '' when absent (attributes written as strings by older code paths too). */
export const text: Reader<string> = (v) => String(v ?? '');
/** True only for true. */
export const bool: Reader<boolean> = (v) => v === true;
/** A non-empty string, else absent. */
export const optStr: Reader<string | undefined> = (v) => (typeof v === 'string' && v !== '' ? v : undefined);
/** Any string (even ''), else absent. */
export const anyStr: Reader<string | undefined> = (v) => (typeof v === 'string' ? v : undefined);
/** A number when set, else absent. */
export const optNum: Reader<number | undefined> = (v) => (v === undefined || v === null ? undefined : num(v));
/** A string, else null. */
export const strOrNull: Reader<string | null> = (v) => (typeof v === 'string' ? v : null);
/** An array as stored, else []. */
export const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
/** A string, else `fallback` (enumerations stored as strings). */
export const strOr =
  <T extends string>(fallback: T): Reader<T> =>
  (v) =>
    (typeof v === 'string' && v !== '' ? v : fallback) as T;
/** The stored value as is, else `fallback` (maps and nested objects the domain wrote). */
export const valueOr =
  <T>(fallback: () => T): Reader<T> =>
  (v) =>
    (v ?? fallback()) as T;

/**
 * A reader of records of type T: each field read by its reader from the attribute of the same name;
 * a field whose reader answers undefined is left out (optional fields stay absent, not undefined).
 */
export function itemCodec<T>(fields: { [K in keyof T]-?: Reader<T[K]> }): (item: Item) => T {
  const entries = Object.entries(fields) as [string, Reader<unknown>][];
  return (item) => {
    const out: Item = {};
    for (const [name, read] of entries) {
      const value = read(item[name]);
      if (value !== undefined) out[name] = value;
    }
    return out as T;
  };
}

const KEY_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'entity'];

/** The record an item holds when it was written as `{ keys, entity, ...record }`: the item minus those (and `extra`). */
export function withoutKeys<T>(item: Item, extra: readonly string[] = []): T {
  const out: Item = { ...item };
  for (const name of [...KEY_ATTRIBUTES, ...extra]) delete out[name];
  return out as T;
}
