/**
 * Fault injection for the integration tests (issue 34; local/faults.ts, local/fault-proxy.ts):
 * the fakes' failure switches (POST /_test/faults on fake OpenAI, Graph, Twilio, Stripe) and the
 * stack's fault proxies in front of S3, SES and DynamoDB (/_local/faults/{service}).
 *
 *   // the next 3 chat completions of this key answer 429 with Retry-After: 1
 *   await armFault('openai', { kind: 'status', status: 429, retryAfter: 1, times: 3, match: { key } });
 *   // Meta refuses this number's sends as "window closed" for 2 s
 *   await armFault('whatsapp', { kind: 'status', code: 131047, forMs: 2000, match: { path: `/${wa.phoneId}/messages` } });
 *   // the app's DynamoDB requests carrying this user's id fail with 500, 5 times
 *   await switchProxy('dynamodb', { state: 'error', times: 5, match: { bodyIncludes: userId } });
 *
 * Files share one stack and run in parallel: scope a fault to your own traffic (match.key, a path
 * with your ids, match.bodyIncludes) and clear it by id. A fault that takes a whole service down
 * (a proxy's 'refuse', an unscoped 'error') belongs on a stack of the file's own (see
 * integration/fault-matrix.test.ts).
 */
import type { FaultState } from '../../local/faults.js';
import type { FaultProxyStatus, ProxiedService } from '../../local/fault-proxy.js';
import { provided } from './api.js';

export type { FaultState } from '../../local/faults.js';
export type { FaultProxyStatus, ProxiedService } from '../../local/fault-proxy.js';

export type FakeName = 'openai' | 'whatsapp' | 'twilio' | 'stripe' | 'google';
const FAKE_URL_KEY: Record<FakeName, string> = { openai: 'openaiUrl', whatsapp: 'whatsappGraphUrl', twilio: 'twilioApiUrl', stripe: 'stripeApiUrl', google: 'googleCalendarUrl' };

/** A fault for a fake (see local/faults.ts for every field). */
export interface FakeFault {
  id?: string;
  kind: 'status' | 'hang' | 'drop';
  match?: 'all' | { method?: string; path?: string; key?: string };
  times?: number;
  forMs?: number;
  status?: number;
  code?: number | string;
  subcode?: number;
  type?: string;
  message?: string;
  body?: unknown;
  retryAfter?: number | string;
  headers?: Record<string, string>;
}

/** A proxy switch: 'pass' clears every fault; the others as in local/fault-proxy.ts. */
export type ProxySwitch =
  | { state: 'pass' }
  | {
      state: 'refuse' | 'error' | 'hang' | 'drop';
      id?: string;
      forMs?: number;
      times?: number;
      match?: 'all' | { method?: string; path?: string; bodyIncludes?: string };
      status?: number;
      code?: string;
      message?: string;
      retryAfter?: number | string;
      headers?: Record<string, string>;
    };

async function call<T>(url: string, method: string, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

const faultsUrl = (fake: FakeName) => `${provided(FAKE_URL_KEY[fake])}/_test/faults`;

/** Arms a fault on a fake; answers it as armed (with its id). */
export async function armFault(fake: FakeName, fault: FakeFault): Promise<FaultState> {
  return (await call<{ fault: FaultState }>(faultsUrl(fake), 'POST', fault)).fault;
}

/** Clears one fault of a fake (or all of them: only on a stack of the file's own). */
export async function clearFault(fake: FakeName, id?: string): Promise<number> {
  const url = id === undefined ? faultsUrl(fake) : `${faultsUrl(fake)}/${encodeURIComponent(id)}`;
  return (await call<{ cleared: number }>(url, 'DELETE')).cleared;
}

/** Every fault of a fake, active or not, with the requests each took (hits) and holds. */
export async function listFaults(fake: FakeName): Promise<FaultState[]> {
  return (await call<{ faults: FaultState[] }>(faultsUrl(fake), 'GET')).faults;
}

/** One fault of a fake by id. */
export async function faultState(fake: FakeName, id: string): Promise<FaultState | undefined> {
  return (await listFaults(fake)).find((f) => f.id === id);
}

/** Switches the fault proxy in front of a service; answers once it is in force (a 'refuse' has closed the port). */
export async function switchProxy(service: ProxiedService, to: ProxySwitch): Promise<FaultProxyStatus> {
  return call<FaultProxyStatus>(`${provided('faultsUrl')}/${service}`, 'POST', to);
}

/** Clears one fault of a proxy (by id) or all of them. */
export async function clearProxy(service: ProxiedService, id?: string): Promise<void> {
  await call(`${provided('faultsUrl')}/${service}${id === undefined ? '' : `/${encodeURIComponent(id)}`}`, 'DELETE');
}

export async function proxyStatus(service: ProxiedService): Promise<FaultProxyStatus> {
  return call<FaultProxyStatus>(`${provided('faultsUrl')}/${service}`, 'GET');
}
