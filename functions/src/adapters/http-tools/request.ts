/**
 * The HTTP request of a custom tool call: the tool's method and endpoint, the arguments as a query
 * string (GET, DELETE) or a JSON body (POST, PUT, PATCH), `{name}` placeholders in the endpoint
 * filled from the arguments of that name (e.g. https://shop.example/orders/{order_id}).
 */
import type { ToolMethod } from '../../contract/agents.js';

export interface ToolHttpRequest {
  url: string;
  method: ToolMethod;
  headers: Record<string, string>;
  body?: string;
}

const BODY_METHODS: ReadonlySet<ToolMethod> = new Set(['POST', 'PUT', 'PATCH']);

/** A query-string value: text as is, numbers and booleans as text, objects and arrays as JSON. */
export const queryValue = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

export function buildToolRequest(
  tool: { endpoint: string; method: ToolMethod },
  args: Record<string, unknown>,
  header: { key: string; value: string } | null,
): ToolHttpRequest {
  const rest: Record<string, unknown> = { ...args };
  const endpoint = tool.endpoint.replace(/\{([A-Za-z][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
    if (!(name in rest) || rest[name] === undefined || rest[name] === null) return whole;
    const value = encodeURIComponent(queryValue(rest[name]));
    delete rest[name];
    return value;
  });
  const headers: Record<string, string> = {
    accept: 'application/json, text/plain;q=0.9, */*;q=0.8',
    'user-agent': 'AgentDesk-Tools/1.0',
  };
  let url = endpoint;
  let body: string | undefined;
  if (BODY_METHODS.has(tool.method)) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(rest);
  } else {
    const u = new URL(endpoint);
    for (const [k, v] of Object.entries(rest)) {
      if (v === undefined || v === null) continue;
      u.searchParams.set(k, queryValue(v));
    }
    url = u.toString();
  }
  if (header && header.key !== '') headers[header.key.toLowerCase()] = header.value;
  return { url, method: tool.method, headers, ...(body !== undefined ? { body } : {}) };
}
