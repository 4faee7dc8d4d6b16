/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` bodies (and query strings)
 * with bracket notation, as the official SDK writes them:
 *
 *   line_items[0][price]=price_x&metadata[userId]=u1&expand[0]=subscription&expand[]=customer
 *
 * parseStripeParams() turns that into nested objects; keys that are all numeric indexes (or
 * `[]`) become arrays. Values stay strings: Stripe itself coerces per parameter.
 */
export type Params = { [key: string]: ParamValue };
export type ParamValue = string | ParamValue[] | Params;

/** `a[b][0][c]` → ['a', 'b', '0', 'c']; `expand[]` → ['expand', '']. */
export function splitKey(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const parts = [key.slice(0, open)];
  const re = /\[([^\]]*)\]/g;
  let m: RegExpExecArray | null;
  let end = open;
  re.lastIndex = open;
  while ((m = re.exec(key)) !== null && m.index === end) {
    parts.push(m[1] ?? '');
    end = re.lastIndex;
  }
  // Anything after the last well-formed bracket belongs to the last part (as qs does).
  if (end < key.length) parts[parts.length - 1] += key.slice(end);
  return parts;
}

type Node = { [key: string]: Node | string } | string;

/** Parse a form body or query string (without the leading '?'). */
export function parseStripeParams(input: string | URLSearchParams): Params {
  const search = typeof input === 'string' ? new URLSearchParams(input) : input;
  const root: { [key: string]: Node } = {};
  const pushCounters = new Map<object, number>();
  for (const [rawKey, value] of search) {
    const parts = splitKey(rawKey);
    let node: { [key: string]: Node } = root;
    for (let i = 0; i < parts.length; i++) {
      let part = parts[i] ?? '';
      if (part === '') {
        // `[]`: append, numbered after whatever this container already holds.
        const next = pushCounters.get(node) ?? Object.keys(node).length;
        pushCounters.set(node, next + 1);
        part = String(next);
      }
      if (i === parts.length - 1) {
        node[part] = value;
      } else {
        const child = node[part];
        if (typeof child === 'object') node = child;
        else {
          const created: { [key: string]: Node } = {};
          node[part] = created;
          node = created;
        }
      }
    }
  }
  return toParams(root) as Params;
}

function toParams(node: Node): ParamValue {
  if (typeof node === 'string') return node;
  const keys = Object.keys(node);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => toParams((node as Record<string, Node>)[String(k)] as Node));
  }
  const out: Params = {};
  for (const key of keys) out[key] = toParams(node[key] as Node);
  return out;
}

// ---------------------------------------------------------------- typed readers

export function str(params: Params | undefined, key: string): string | undefined {
  const v = params?.[key];
  return typeof v === 'string' ? v : undefined;
}

export function obj(params: Params | undefined, key: string): Params | undefined {
  const v = params?.[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
}

/** An array param; Stripe also accepts an index-keyed object, which parsing already turned into one. */
export function list(params: Params | undefined, key: string): ParamValue[] {
  const v = params?.[key];
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return [v];
  return [];
}

export function int(params: Params | undefined, key: string): number | undefined {
  const v = str(params, key);
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  return Number.isInteger(n) ? n : Number.NaN;
}

export function bool(params: Params | undefined, key: string): boolean | undefined {
  const v = str(params, key);
  if (v === undefined) return undefined;
  return v === 'true';
}

/** `expand[]` values as plain strings. */
export function expandList(params: Params | undefined): string[] {
  return list(params, 'expand').filter((v): v is string => typeof v === 'string');
}

/** metadata[...] as a string map; an empty string value means "remove this key" on updates. */
export function metadataParam(params: Params | undefined, key = 'metadata'): Record<string, string> | undefined {
  const m = params?.[key];
  if (m === '') return {};
  if (!m || typeof m !== 'object' || Array.isArray(m)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m)) if (typeof v === 'string') out[k] = v;
  return out;
}
