/**
 * TwilioAccountApi over Twilio's documented REST API (2010-04-01) with plain fetch: the three
 * calls the integration setup and test make, and (issue 33) the erasure's and the retention's. The official SDK's client bundles 3.7 MB (its REST
 * plumbing alone pulls axios and form-data); these calls need HTTP basic auth with
 * accountSid:authToken, form-encoded bodies and JSON answers, nothing more.
 *
 *   GET  /2010-04-01/Accounts/{AccountSid}.json                                  the account
 *   GET  /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers.json?PhoneNumber=  the number's sid
 *   POST /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers/{Sid}.json         VoiceUrl, StatusCallback
 *   DELETE /2010-04-01/Accounts/{AccountSid}/Recordings/{Sid}.json                  204; 404 (20404) = already gone
 *   POST /2010-04-01/Accounts/{AccountSid}/Calls/{Sid}.json                         Status=completed ends a live call
 *   GET  /2010-04-01/Accounts/{AccountSid}/Recordings/{Sid}.mp3                     the audio (export)
 *
 * Twilio's error body {code, message, more_info, status} becomes a TwilioError as the SDK's
 * RestException did: 401/403 or code 20003 → 'auth', 404 → 'not_found', anything else (and a
 * failed or timed-out request) → 'unavailable'.
 *
 * Base URL: https://api.twilio.com, or TWILIO_API_URL (the local fake Twilio).
 */
import { TwilioError, type TwilioAccountApi, type TwilioCredentials } from '../../domain/voice/ports.js';

export const TWILIO_API_ORIGIN = 'https://api.twilio.com';
const API_VERSION = '2010-04-01';
/** Twilio's error for updating a call that is no longer in progress. */
const CALL_NOT_IN_PROGRESS = 21220;
const AUDIO_TIMEOUT_MS = 120_000;

export interface FetchTwilioAccountApiOptions {
  /** TWILIO_API_URL; default https://api.twilio.com. */
  baseUrl?: string;
  /** Per request (default 8 s; the setup handler has 29 s for two or three calls). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** A non-2xx answer, with Twilio's error code and message when the body carries them. */
class TwilioRestError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

function classify(error: unknown, action: string): TwilioError {
  if (error instanceof TwilioError) return error;
  if (!(error instanceof TwilioRestError)) return new TwilioError('unavailable', `${action}: ${error instanceof Error ? error.message : String(error)}`);
  const { status, code } = error;
  const detail = `${action}: ${error.message}${code ? ` (Twilio code ${code})` : ''}`;
  // 20003 "Authenticate": wrong account SID or auth token (Twilio answers 401 for both).
  if (status === 401 || status === 403 || code === 20003) return new TwilioError('auth', detail, status, code);
  if (status === 404) return new TwilioError('not_found', detail, status, code);
  return new TwilioError('unavailable', detail, status, code);
}

const basicAuth = (creds: TwilioCredentials) => `Basic ${Buffer.from(`${creds.accountSid}:${creds.authToken}`).toString('base64')}`;

/** A REST answer's JSON, or a TwilioRestError for a non-2xx (Twilio's {code, message} when the body has them). */
async function readAnswer(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined; // Not JSON: the error carries only the status.
  }
  const json = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  if (response.status < 200 || response.status >= 300) {
    const message = typeof json.message === 'string' ? json.message : `[HTTP ${response.status}] Failed to execute request`;
    throw new TwilioRestError(response.status, typeof json.code === 'number' ? json.code : undefined, message);
  }
  return json;
}

const str = (value: unknown) => (typeof value === 'string' ? value : '');

interface RestTarget {
  baseUrl: string;
  timeoutMs: number;
  fetchImpl: typeof fetch;
}

const targetOf = (options: FetchTwilioAccountApiOptions): RestTarget => ({
  baseUrl: (options.baseUrl ?? TWILIO_API_ORIGIN).replace(/\/+$/, ''),
  timeoutMs: options.timeoutMs ?? 8_000,
  fetchImpl: options.fetch ?? fetch,
});

const accountUrl = (t: RestTarget, creds: TwilioCredentials, path: string) => `${t.baseUrl}/${API_VERSION}/Accounts/${encodeURIComponent(creds.accountSid)}${path}`;

/** One REST call on the account: its JSON answer, or a TwilioRestError for a non-2xx. */
async function restCall(t: RestTarget, creds: TwilioCredentials, method: 'GET' | 'POST' | 'DELETE', path: string, form?: Record<string, string>): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { Authorization: basicAuth(creds), Accept: 'application/json' };
  if (form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  const response = await t.fetchImpl(accountUrl(t, creds, path), {
    method,
    headers,
    body: form ? new URLSearchParams(form).toString() : undefined,
    redirect: 'manual',
    signal: AbortSignal.timeout(t.timeoutMs),
  });
  return readAnswer(response);
}

/**
 * DELETE a recording; 404 (20404) = deleted before (a retried erasure, the retention sweep): the
 * wanted outcome. Apart from the class so the voice webhook (an erased call's late recording,
 * issue 33) bundles this one call without the rest of the account API.
 */
export async function deleteTwilioRecording(options: FetchTwilioAccountApiOptions, creds: TwilioCredentials, recordingSid: string): Promise<void> {
  try {
    await restCall(targetOf(options), creds, 'DELETE', `/Recordings/${encodeURIComponent(recordingSid)}.json`);
  } catch (error) {
    if (error instanceof TwilioRestError && error.status === 404) return;
    throw classify(error, 'delete recording');
  }
}

export class FetchTwilioAccountApi implements TwilioAccountApi {
  private readonly target: RestTarget;

  constructor(private readonly options: FetchTwilioAccountApiOptions = {}) {
    this.target = targetOf(options);
  }

  private call(creds: TwilioCredentials, method: 'GET' | 'POST' | 'DELETE', path: string, form?: Record<string, string>): Promise<Record<string, unknown>> {
    return restCall(this.target, creds, method, path, form);
  }

  private url(creds: TwilioCredentials, path: string): string {
    return accountUrl(this.target, creds, path);
  }

  async fetchAccount(creds: TwilioCredentials): Promise<{ friendlyName: string; status: string }> {
    try {
      const account = await this.call(creds, 'GET', '.json');
      return { friendlyName: str(account.friendly_name), status: str(account.status) };
    } catch (error) {
      throw classify(error, 'fetch account');
    }
  }

  async findNumber(creds: TwilioCredentials, phoneNumber: string): Promise<string | null> {
    try {
      const query = new URLSearchParams({ PhoneNumber: phoneNumber, PageSize: '20' });
      const page = await this.call(creds, 'GET', `/IncomingPhoneNumbers.json?${query}`);
      const numbers = Array.isArray(page.incoming_phone_numbers) ? (page.incoming_phone_numbers as Record<string, unknown>[]) : [];
      const match = numbers.find((n) => n?.phone_number === phoneNumber);
      return match ? str(match.sid) || null : null;
    } catch (error) {
      throw classify(error, 'find number');
    }
  }

  async configureNumber(creds: TwilioCredentials, numberSid: string, urls: { voiceUrl: string; statusCallback: string }): Promise<void> {
    try {
      await this.call(creds, 'POST', `/IncomingPhoneNumbers/${encodeURIComponent(numberSid)}.json`, {
        VoiceUrl: urls.voiceUrl,
        VoiceMethod: 'POST',
        StatusCallback: urls.statusCallback,
        StatusCallbackMethod: 'POST',
      });
    } catch (error) {
      throw classify(error, 'configure number');
    }
  }

  deleteRecording(creds: TwilioCredentials, recordingSid: string): Promise<void> {
    return deleteTwilioRecording(this.options, creds, recordingSid);
  }

  async endCall(creds: TwilioCredentials, callSid: string): Promise<void> {
    try {
      await this.call(creds, 'POST', `/Calls/${encodeURIComponent(callSid)}.json`, { Status: 'completed' });
    } catch (error) {
      // Unknown (404) or no longer in progress (21220 "Invalid call state"): the call is over already.
      if (error instanceof TwilioRestError && (error.status === 404 || error.code === CALL_NOT_IN_PROGRESS)) return;
      throw classify(error, 'end call');
    }
  }

  async recordingAudio(creds: TwilioCredentials, recordingSid: string): Promise<AsyncIterable<Uint8Array> | null> {
    try {
      const response = await this.target.fetchImpl(this.url(creds, `/Recordings/${encodeURIComponent(recordingSid)}.mp3`), {
        headers: { Authorization: basicAuth(creds) },
        redirect: 'follow',
        // The whole body streams under this signal: a long recording needs more than a REST call's 8 s.
        signal: AbortSignal.timeout(AUDIO_TIMEOUT_MS),
      });
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok || !response.body) await readAnswer(response);
      return response.body as unknown as AsyncIterable<Uint8Array>;
    } catch (error) {
      throw classify(error, 'fetch recording');
    }
  }
}
