/**
 * The one API client (SPEC §7, §8): JSON, bearer token, 30 s timeout, errors carry the
 * server's message. A call made within a minute of the access token's expiry first refreshes it
 * (the app's timer may not have run: a sleeping laptop, a throttled background tab), so a
 * 5-minute token never shows as a 401. A 401 from a non-auth call still tries one (single-flight)
 * refresh with the refresh token and retries once; if that fails the session is cleared and the
 * app's unauthorized handler sends the browser to /login.
 */
import { teamMessages, type ApiEnvelope, type RefreshedSession } from '@agentdesk/functions/contract';
import { clearSession, getSession, msUntilRefresh, setSession, type StoredSession } from './session';

export const REQUEST_TIMEOUT_MS = 30_000;

/** Calls that authenticate by themselves: a 401 there is an answer, not an expired session. */
const AUTH_PATHS = new Set([
  '/api/login',
  '/api/register',
  '/api/google-auth',
  '/api/send-verification',
  '/api/send-password-reset',
  '/api/reset-password',
  '/api/refresh-token',
]);

export function isAuthPath(path: string): boolean {
  const p = path.split('?')[0] ?? path;
  return AUTH_PATHS.has(p);
}

export class ApiError extends Error {
  /** HTTP status, or 0 for a network failure or timeout. */
  readonly status: number;
  /** The server's own message, when it sent one; callers fall back to their spec text otherwise. */
  readonly serverMessage: string | undefined;
  /** The parsed error body, for answers that carry more than a message (e.g. a 409's existingContactId). */
  readonly body: Record<string, unknown> | undefined;

  constructor(status: number, serverMessage: string | undefined, body?: Record<string, unknown>) {
    super(serverMessage ?? `Request failed (${status || 'network'})`);
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = serverMessage;
    this.body = body;
  }
}

/** The server's own message of a failed call, if it sent one. */
export function serverMessageOf(err: unknown): string | undefined {
  return err instanceof ApiError ? err.serverMessage : undefined;
}

/** The server's message when there is one, else the caller's fallback text. */
export function errorText(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.serverMessage) return err.serverMessage;
  return fallback;
}

let unauthorizedHandler: () => void = () => {
  window.location.assign('/login');
};

/** The app registers how to leave after the session is lost (router navigation to /login). */
export function setUnauthorizedHandler(handler: () => void): void {
  unauthorizedHandler = handler;
}

let forbiddenHandler: (message: string) => void = () => undefined;

/**
 * The app registers how to tell the person their role does not allow a call (issue 32: the server
 * answers 403 teamMessages.forbidden below a route's role): a snackbar, whichever page made the call.
 */
export function setForbiddenHandler(handler: (message: string) => void): void {
  forbiddenHandler = handler;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** JSON body, or FormData for multipart uploads. */
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
}

async function send(path: string, opts: RequestOptions, token: string | undefined): Promise<Response> {
  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onAbort);
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) {
    body = opts.body;
  } else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    return await fetch(path, { method: opts.method ?? (body ? 'POST' : 'GET'), headers, body, signal: controller.signal });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    throw new ApiError(0, undefined);
  } finally {
    clearTimeout(timeout);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/** The parsed JSON body (an empty object when there is none); throws ApiError on any failure. */
async function readBody(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text().catch(() => '');
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  const body = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
  const message = typeof body.message === 'string' && body.message ? body.message : undefined;
  if (!res.ok || body.success === false) throw new ApiError(res.status, message, body);
  return body;
}

async function readEnvelope<T>(res: Response): Promise<ApiEnvelope<T>> {
  const env = (await readBody(res)) as Partial<ApiEnvelope<T>>;
  const message = typeof env.message === 'string' && env.message ? env.message : undefined;
  return { success: env.success ?? true, message, data: env.data };
}

/** A new access token for this refresh token, or undefined. */
async function exchangeRefreshToken(refreshToken: string, timeoutMs?: number): Promise<RefreshedSession | undefined> {
  const res = await send('/api/refresh-token', { method: 'POST', body: { refreshToken }, timeoutMs }, undefined);
  const env = await readEnvelope<RefreshedSession>(res);
  return env.data?.token ? env.data : undefined;
}

/**
 * Ends the session on the server too (POST /api/logout signs the user out on every device), best
 * effort: it never throws and never touches the stored session, which the caller clears at once.
 * A token at or past its expiry (a laptop just woken up) is refreshed first: the logout would
 * otherwise get a 401 and leave the other devices signed in.
 */
export async function endServerSession(session: Pick<StoredSession, 'token' | 'refreshToken' | 'expiresAt'>): Promise<void> {
  let token = session.token;
  if (session.refreshToken && msUntilRefresh(session) === 0) {
    try {
      token = (await exchangeRefreshToken(session.refreshToken, 10_000))?.token ?? token;
    } catch {
      // Try the logout with the token there is.
    }
  }
  try {
    await send('/api/logout', { method: 'POST', timeoutMs: 10_000 }, token);
  } catch {
    // Offline or timed out: leaving still happens locally.
  }
}

export type RefreshOutcome = 'ok' | 'rejected' | 'error';
let refreshing: Promise<RefreshOutcome> | null = null;

async function doRefresh(): Promise<RefreshOutcome> {
  const session = getSession();
  if (!session?.refreshToken) return 'rejected';
  try {
    const refreshed = await exchangeRefreshToken(session.refreshToken);
    if (!refreshed) return 'rejected';
    // Another tab may have logged out meanwhile.
    if (getSession()?.refreshToken !== session.refreshToken) return getSession() ? 'ok' : 'rejected';
    setSession(refreshed.token, session.refreshToken, refreshed.expiresIn);
    return 'ok';
  } catch (err) {
    if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429) return 'rejected';
    return 'error';
  }
}

/** Exchanges the refresh token for a new access token; concurrent callers share one request. */
export function refreshSession(): Promise<RefreshOutcome> {
  refreshing ??= doRefresh().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function sessionLost(): void {
  clearSession();
  unauthorizedHandler();
}

/** Sends a user call; a 401 gets one refresh and one retry, and loses the session if that fails. */
async function sendWithRefresh(path: string, opts: RequestOptions): Promise<Response> {
  const authCall = isAuthPath(path);
  const before = authCall ? null : getSession();
  // Whatever the refresh says, the call goes out: a rejected one ends the session on the 401 below.
  if (before?.refreshToken && before.expiresAt && msUntilRefresh(before) === 0) await refreshSession();
  const usedToken = authCall ? undefined : getSession()?.token;
  const res = await send(path, opts, usedToken);
  if (res.status !== 401 || authCall) return res;

  // 401 on a user call: refresh once (unless another call already did), then retry once.
  const current = getSession();
  let retryToken: string | undefined;
  if (current && current.token !== usedToken) {
    retryToken = current.token;
  } else if (current && (await refreshSession()) === 'ok') {
    retryToken = getSession()?.token;
  }
  if (!retryToken) {
    sessionLost();
    return res;
  }
  const retry = await send(path, opts, retryToken);
  if (retry.status === 401) sessionLost();
  return retry;
}

/** Calls the API and returns the envelope; throws ApiError on any failure. */
export async function request<T = undefined>(path: string, opts: RequestOptions = {}): Promise<ApiEnvelope<T>> {
  return readEnvelope<T>(await sendWithSession(path, opts));
}

/** Every signed-in call goes through here: a role refusal also reaches the app's forbidden handler. */
async function sendWithSession(path: string, opts: RequestOptions): Promise<Response> {
  const res = await sendWithRefresh(path, opts);
  if (res.status === 403) {
    const message = await res
      .clone()
      .json()
      .then((body: unknown) => (body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined))
      .catch(() => undefined);
    if (message === teamMessages.forbidden) forbiddenHandler(message);
  }
  return res;
}

/**
 * Calls the API and returns the whole JSON body, for the few answers whose fields sit at the
 * top level instead of under `data` (GET /api/subscription/verify-session/{id}).
 */
export async function requestBody<T extends object>(path: string, opts: RequestOptions = {}): Promise<T> {
  return (await readBody(await sendWithSession(path, opts))) as T;
}

/**
 * Calls the API and returns the successful response unread, for answers that are not JSON
 * (GET /api/contacts/export is text/csv); a failure throws ApiError with the server's message.
 */
export async function requestResponse(path: string, opts: RequestOptions = {}): Promise<Response> {
  const res = await sendWithSession(path, opts);
  if (!res.ok) await readBody(res);
  return res;
}

/** Like `request`, returning `data` (throws when the server sent none). */
export async function requestData<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const env = await request<T>(path, opts);
  if (env.data === undefined) throw new ApiError(500, env.message);
  return env.data;
}
