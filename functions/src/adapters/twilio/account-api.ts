/**
 * TwilioAccountApi over the official `twilio` SDK: the SDK's own REST plumbing (Domain, Version,
 * IncomingPhoneNumber list/context, RestException) with a fetch transport in place of the SDK's
 * axios RequestClient.
 *
 * Why not `twilio(...)` or `twilio/lib/rest/Api`: the full client bundles 3.7 MB and Api ~540 KB;
 * the SDK's RequestClient alone pulls axios and form-data (~380 KB minified). The pieces used here
 * come to ~80 KB. The transport does what RequestClient does for these calls (HTTP basic auth
 * with accountSid:authToken, form-encoded bodies, query parameters, Accept: application/json)
 * and answers the SDK's {statusCode, body, headers}, so the SDK maps error bodies ({code,
 * message, more_info, status}) to its RestException as usual.
 *
 * Base URL: https://api.twilio.com, or TWILIO_API_URL (the local fake Twilio) — the SDK's Domain
 * takes its origin as a constructor argument, so every URL it builds (pages included) uses it.
 */
import DomainModule from 'twilio/lib/base/Domain.js';
import VersionModule from 'twilio/lib/base/Version.js';
import type { RequestOpts } from 'twilio/lib/base/BaseTwilio.js';
import type V2010 from 'twilio/lib/rest/api/V2010.js';
import { IncomingPhoneNumberContextImpl, IncomingPhoneNumberListInstance } from 'twilio/lib/rest/api/v2010/account/incomingPhoneNumber.js';
import { TwilioError, type TwilioAccountApi, type TwilioCredentials } from '../../domain/voice/ports.js';

/** Node's ESM import of a CommonJS module with `exports.default` gives the exports object. */
const interop = <T>(m: T): T => ((m as { default?: T }).default ?? m) as T;
const Domain = interop(DomainModule);
const Version = interop(VersionModule);

export const TWILIO_API_ORIGIN = 'https://api.twilio.com';
const API_VERSION = '2010-04-01';

export interface SdkTwilioAccountApiOptions {
  /** TWILIO_API_URL; default https://api.twilio.com. */
  baseUrl?: string;
  /** Per request (default 8 s; the setup handler has 29 s for two or three calls). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

interface SdkResponse {
  statusCode: number;
  body: unknown;
  headers: Record<string, string>;
}

function formEncode(values: object | undefined): string {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(values ?? {})) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) form.append(key, String(item));
  }
  return form.toString();
}

/** The SDK's `twilio` client as Domain uses it: request(opts) → {statusCode, body, headers}. */
class FetchTransport {
  constructor(
    private readonly creds: TwilioCredentials,
    private readonly timeoutMs: number,
    private readonly fetchImpl: typeof fetch,
  ) {}

  async request(opts: RequestOpts): Promise<SdkResponse> {
    const method = (opts.method ?? 'get').toUpperCase();
    const url = new URL(opts.uri ?? '');
    const query = formEncode(opts.params);
    if (query) url.search = url.search ? `${url.search}&${query}` : query;
    const headers: Record<string, string> = {
      ...(opts.headers as Record<string, string> | undefined),
      Authorization: `Basic ${Buffer.from(`${this.creds.accountSid}:${this.creds.authToken}`).toString('base64')}`,
      'User-Agent': 'twilio-node (AgentDesk fetch transport)',
      'Accept-Charset': 'utf-8',
    };
    if (method !== 'DELETE') headers.Accept ??= 'application/json';
    let body: string | undefined;
    if ((method === 'POST' || method === 'PUT') && opts.data) {
      headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
      body = headers['Content-Type'] === 'application/json' ? JSON.stringify(opts.data) : formEncode(opts.data);
    }
    const response = await this.fetchImpl(url, {
      method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(opts.timeout ?? this.timeoutMs),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : text;
    } catch {
      // Not JSON: the SDK sees the text (RestException then carries only the status).
    }
    return { statusCode: response.status, body: parsed, headers: Object.fromEntries(response.headers) };
  }
}

/** SDK RestException / TwilioServiceException → TwilioError; a failed transport is 'unavailable'. */
function classify(error: unknown, action: string): TwilioError {
  if (error instanceof TwilioError) return error;
  const e = error as { status?: unknown; code?: unknown; message?: unknown; name?: unknown };
  const status = typeof e?.status === 'number' ? e.status : undefined;
  const code = typeof e?.code === 'number' ? e.code : undefined;
  const detail = `${action}: ${typeof e?.message === 'string' ? e.message : String(error)}${code ? ` (Twilio code ${code})` : ''}`;
  if (status === undefined) return new TwilioError('unavailable', detail);
  // 20003 "Authenticate": wrong account SID or auth token (Twilio answers 401 for both).
  if (status === 401 || status === 403 || code === 20003) return new TwilioError('auth', detail, status);
  if (status === 404) return new TwilioError('not_found', detail, status);
  return new TwilioError('unavailable', detail, status);
}

export class SdkTwilioAccountApi implements TwilioAccountApi {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: SdkTwilioAccountApiOptions = {}) {
    this.baseUrl = (options.baseUrl ?? TWILIO_API_ORIGIN).replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 8_000;
    this.fetchImpl = options.fetch ?? fetch;
  }

  /**
   * The SDK's 2010-04-01 API version bound to one account's credentials. A plain Version, not the
   * SDK's V2010 class (which loads every v2010 resource): the resources used here only need its
   * request plumbing, hence the type cast.
   */
  private version(creds: TwilioCredentials): V2010 {
    const transport = new FetchTransport(creds, this.timeoutMs, this.fetchImpl);
    const domain = new Domain(transport as unknown as ConstructorParameters<typeof Domain>[0], this.baseUrl);
    return new Version(domain, API_VERSION) as unknown as V2010;
  }

  async fetchAccount(creds: TwilioCredentials): Promise<{ friendlyName: string; status: string }> {
    try {
      const payload = (await this.version(creds).fetch({
        uri: `/Accounts/${encodeURIComponent(creds.accountSid)}.json`,
        method: 'get',
        headers: { Accept: 'application/json' },
      })) as { friendly_name?: unknown; status?: unknown };
      return {
        friendlyName: typeof payload.friendly_name === 'string' ? payload.friendly_name : '',
        status: typeof payload.status === 'string' ? payload.status : '',
      };
    } catch (error) {
      throw classify(error, 'fetch account');
    }
  }

  async findNumber(creds: TwilioCredentials, phoneNumber: string): Promise<string | null> {
    try {
      const numbers = IncomingPhoneNumberListInstance(this.version(creds), creds.accountSid);
      const page = await numbers.page({ phoneNumber, pageSize: 20 });
      return page.instances.find((n) => n.phoneNumber === phoneNumber)?.sid ?? null;
    } catch (error) {
      throw classify(error, 'find number');
    }
  }

  async configureNumber(creds: TwilioCredentials, numberSid: string, urls: { voiceUrl: string; statusCallback: string }): Promise<void> {
    try {
      await new IncomingPhoneNumberContextImpl(this.version(creds), creds.accountSid, numberSid).update({
        voiceUrl: urls.voiceUrl,
        voiceMethod: 'POST',
        statusCallback: urls.statusCallback,
        statusCallbackMethod: 'POST',
      });
    } catch (error) {
      throw classify(error, 'configure number');
    }
  }
}
