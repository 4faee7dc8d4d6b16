/**
 * A fake Twilio REST API on loopback: the tests' and the local runtime's Twilio (TWILIO_API_URL =
 * its origin), so the Twilio Voice integration works offline. It answers in Twilio's shapes,
 * including its error body {code, message, more_info, status}. Accounts exist only once
 * registered through the control API.
 *
 *   GET  /2010-04-01/Accounts/{AC}.json                              the account
 *   GET  /2010-04-01/Accounts/{AC}/IncomingPhoneNumbers.json         ?PhoneNumber= (digits, '*' = any digit), PageSize, Page
 *   GET  /2010-04-01/Accounts/{AC}/IncomingPhoneNumbers/{PN}.json    one number
 *   POST /2010-04-01/Accounts/{AC}/IncomingPhoneNumbers/{PN}.json    form: VoiceUrl, VoiceMethod, StatusCallback,
 *                                                                    StatusCallbackMethod, FriendlyName
 *   GET  /2010-04-01/Accounts/{AC}/Recordings/{RE}(.mp3|.wav|.json)  a short silent audio file (any RE sid not deleted)
 *   DELETE /2010-04-01/Accounts/{AC}/Recordings/{RE}.json            204 (no body); a deleted one → 404 20404
 *   POST /2010-04-01/Accounts/{AC}/Calls/{CA}.json                   form: Status=completed|canceled ends the call
 *                                                                    (200, the call); a call ended before → 400 21220
 *
 * Every REST call needs HTTP basic auth accountSid:authToken of a registered account (else 401
 * code 20003 "Authenticate"); another account's path → 404 code 20404.
 *
 * Control API (/_test/...):
 *   POST /_test/accounts  {accountSid?, authToken?, friendlyName?, status?, numbers: ['+1…']}
 *                         → {accountSid, authToken, numbers: [{sid, phoneNumber}]} (missing sid/token generated;
 *                         registering a sid again replaces it)
 *   GET  /_test/numbers   ?accountSid=&phoneNumber= → {numbers: [{accountSid, sid, phoneNumber, voiceUrl,
 *                         voiceMethod, statusCallback, statusCallbackMethod}]} (what setup configured)
 *   POST /_test/fail      {accountSid, status?, code?, message?, count?, delayMs?} → the account's next REST
 *                         calls fail (status 0 = connection dropped)
 *   POST /_test/calls     {to, from, turns: [{speech, confidence, interruptAfterTokens?, lang?} | {silence: true} |
 *                         {dtmf: '1'}], callSid?, hangup?, callDurationSec?, finalStatus?, relayTurnTimeoutMs?,
 *                         relayWire?: {interruptDuration?: 'number' | 'string', extraFields?: boolean}}
 *                         → plays a call to the number `to` against its configured voice URL and status
 *                         callback with the call simulator (call-simulator.ts; a <Connect><ConversationRelay>
 *                         answer is played over the WebSocket, relay-simulator.ts) and answers its result
 *                         {callSid, events, ended, httpStatuses, requests, recordingSid, relaySessions: [{status,
 *                         handoffData, turns: [{firstTokenMs, lastTokenMs, tokens, heard, interrupted,
 *                         interruptToLastTokenMs, …}]}]}; 409 when the number has no voice URL yet
 *   GET  /_test/deletions ?accountSid= → {recordings: [{accountSid, sid, at}], endedCalls: [{accountSid, sid,
 *                         status, at}]}: what the REST API deleted and ended (issue 33's erasure, the retention)
 *   POST /_test/reset     forget every account (and the deletions)
 *   /_test/faults         failure switches (../faults.ts): any status with Twilio's error body (20003,
 *                         20429 with Retry-After, 20503…), hang, dropped connections; per account
 *                         (match.key = the account sid), count- or time-based
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeOnce, createWaits, listen, readBody, readJsonObject, sendJson } from '../fake-http.js';
import { fakeFaults, type FaultAnswer, type ProviderError } from '../faults.js';
import type { ScriptTurn, SimulatedCall } from './call-simulator.js';
import type { RelayWire } from './relay-simulator.js';

const MAX_BODY = 1024 * 1024;
const API = '2010-04-01';

export interface FakeTwilioNumber {
  sid: string;
  phoneNumber: string;
  friendlyName: string;
  voiceUrl: string;
  voiceMethod: string;
  statusCallback: string;
  statusCallbackMethod: string;
  dateCreated: string;
  dateUpdated: string;
}

export interface FakeTwilioAccount {
  sid: string;
  authToken: string;
  friendlyName: string;
  status: string;
  dateCreated: string;
  numbers: Map<string, FakeTwilioNumber>;
}

interface FailRule {
  count: number;
  status: number;
  code: number;
  message: string;
  delayMs: number;
}

export interface FakeTwilioOptions {
  /** 0 or missing: any free port. */
  port?: number;
  host?: string;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

/** A recording deleted or a call ended through the REST API (issue 33). */
export interface FakeTwilioRemoval {
  accountSid: string;
  sid: string;
  at: string;
  /** Ended calls: the Status asked for (completed | canceled). */
  status?: string;
}

export interface FakeTwilio {
  /** http://127.0.0.1:<port>: TWILIO_API_URL of the handlers; control API under /_test. */
  url: string;
  port: number;
  accounts: Map<string, FakeTwilioAccount>;
  /** Recordings deleted and calls ended, in order. */
  deletedRecordings: FakeTwilioRemoval[];
  endedCalls: FakeTwilioRemoval[];
  register(input: { accountSid?: string; authToken?: string; friendlyName?: string; status?: string; numbers?: string[] }): FakeTwilioAccount;
  close(): Promise<void>;
  /** Same as close (the local stack's service shape). */
  stop(): Promise<void>;
}

class TwilioApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
/** Twilio's date format (RFC 2822). */
const twilioDate = (iso: string) => new Date(iso).toUTCString().replace('GMT', '+0000');

function sendError(res: ServerResponse, error: TwilioApiError): void {
  sendJson(res, error.status, {
    code: error.code,
    message: error.message,
    more_info: `https://www.twilio.com/docs/errors/${error.code}`,
    status: error.status,
  });
}

/** Twilio's REST errors for the fault switches, by code (the error dictionary's titles). */
const TWILIO_FAULT_CODES: Record<number, { status: number; message: string }> = {
  20003: { status: 401, message: 'Authenticate' },
  20005: { status: 401, message: 'Account not active' },
  20429: { status: 429, message: 'Too Many Requests' },
  20500: { status: 500, message: 'Internal Server Error' },
  20503: { status: 503, message: 'Service Unavailable' },
};

/** The {code, message, more_info, status} body for a fault: a known code, else by status (401 → 20003, 429 → 20429, 503 → 20503, 500 → 20500). */
export function twilioFaultError(spec: FaultAnswer): ProviderError {
  const byStatus: Record<number, number> = { 401: 20003, 429: 20429, 500: 20500, 503: 20503 };
  const code = typeof spec.code === 'number' ? spec.code : spec.status !== undefined ? (byStatus[spec.status] ?? 20500) : 20503;
  const known = TWILIO_FAULT_CODES[code];
  const status = spec.status ?? known?.status ?? 500;
  return {
    status,
    body: { code, message: spec.message ?? known?.message ?? 'Fault injected by the test', more_info: `https://www.twilio.com/docs/errors/${code}`, status },
  };
}

const notFound = (path: string) => new TwilioApiError(404, 20404, `The requested resource ${path} was not found`);

/** ~0.3 s of silent MPEG-1 Layer III (128 kbit/s, 44.1 kHz frames of zeros). */
function silentMp3(): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat(Array.from({ length: 12 }, () => frame));
}

/** 0.25 s of 8 kHz 16-bit mono silence (Twilio's default recording media is WAV). */
function silentWav(): Buffer {
  const samples = 2000;
  const data = samples * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
}

/** Twilio's PhoneNumber filter: the digits given (with '*' for any digit) anywhere in the number. */
function matchesNumberFilter(phoneNumber: string, filter: string): boolean {
  const pattern = filter.replace(/[^\d*]/g, '').replace(/\*/g, '\\d');
  return pattern === '' || new RegExp(pattern).test(phoneNumber.replace(/\D/g, ''));
}

export async function startFakeTwilio(options: FakeTwilioOptions = {}): Promise<FakeTwilio> {
  const host = options.host ?? '127.0.0.1';
  const accounts = new Map<string, FakeTwilioAccount>();
  const rules = new Map<string, FailRule>();
  const waits = createWaits();
  const faults = fakeFaults({ errorFor: twilioFaultError });
  const deletedRecordings: FakeTwilioRemoval[] = [];
  const endedCalls: FakeTwilioRemoval[] = [];
  const isDeleted = (accountSid: string, sid: string) => deletedRecordings.some((r) => r.accountSid === accountSid && r.sid === sid);
  let baseUrl = '';

  function register(input: { accountSid?: string; authToken?: string; friendlyName?: string; status?: string; numbers?: string[] }): FakeTwilioAccount {
    const sid = input.accountSid || `AC${hex(16)}`;
    const at = new Date().toISOString();
    const account: FakeTwilioAccount = {
      sid,
      authToken: input.authToken || hex(16),
      friendlyName: input.friendlyName || 'AgentDesk test account',
      status: input.status || 'active',
      dateCreated: at,
      numbers: new Map(),
    };
    for (const phoneNumber of input.numbers ?? []) {
      const number: FakeTwilioNumber = {
        sid: `PN${hex(16)}`,
        phoneNumber,
        friendlyName: phoneNumber,
        voiceUrl: '',
        voiceMethod: 'POST',
        statusCallback: '',
        statusCallbackMethod: 'POST',
        dateCreated: at,
        dateUpdated: at,
      };
      account.numbers.set(number.sid, number);
    }
    accounts.set(sid, account);
    return account;
  }

  const accountJson = (a: FakeTwilioAccount) => ({
    sid: a.sid,
    owner_account_sid: a.sid,
    friendly_name: a.friendlyName,
    status: a.status,
    type: 'Full',
    date_created: twilioDate(a.dateCreated),
    date_updated: twilioDate(a.dateCreated),
    auth_token: a.authToken,
    uri: `/${API}/Accounts/${a.sid}.json`,
    subresource_uris: {
      incoming_phone_numbers: `/${API}/Accounts/${a.sid}/IncomingPhoneNumbers.json`,
      recordings: `/${API}/Accounts/${a.sid}/Recordings.json`,
    },
  });

  const numberJson = (a: FakeTwilioAccount, n: FakeTwilioNumber) => ({
    account_sid: a.sid,
    sid: n.sid,
    phone_number: n.phoneNumber,
    friendly_name: n.friendlyName,
    voice_url: n.voiceUrl || null,
    voice_method: n.voiceMethod,
    voice_fallback_url: null,
    voice_fallback_method: 'POST',
    status_callback: n.statusCallback || null,
    status_callback_method: n.statusCallbackMethod,
    voice_application_sid: null,
    trunk_sid: null,
    sms_url: null,
    sms_method: 'POST',
    capabilities: { voice: true, sms: true, mms: true, fax: false },
    status: 'in-use',
    origin: 'twilio',
    api_version: API,
    date_created: twilioDate(n.dateCreated),
    date_updated: twilioDate(n.dateUpdated),
    uri: `/${API}/Accounts/${a.sid}/IncomingPhoneNumbers/${n.sid}.json`,
  });

  /** The account the basic-auth credentials name, or 401 20003. */
  function authenticate(req: IncomingMessage): FakeTwilioAccount {
    const match = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const account = colon > 0 ? accounts.get(decoded.slice(0, colon)) : undefined;
    if (!account || account.authToken !== decoded.slice(colon + 1)) throw new TwilioApiError(401, 20003, 'Authenticate');
    return account;
  }


  /** The account's scripted failure, if any: throws its error, or true when the answer was dropped. */
  async function applyFailure(accountSid: string, res: ServerResponse): Promise<boolean> {
    const rule = rules.get(accountSid);
    if (!rule || rule.count <= 0) return false;
    rule.count -= 1;
    if (rule.count === 0) rules.delete(accountSid);
    if (rule.delayMs && !(await waits.wait(rule.delayMs, res))) return true;
    if (rule.status === 0) {
      res.destroy();
      return true;
    }
    throw new TwilioApiError(rule.status, rule.code, rule.message);
  }

  async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
    const text = await readBody(req, MAX_BODY, () => new TwilioApiError(413, 20001, 'Request body too large'));
    return new URLSearchParams(text);
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
    try {
      const path = url.pathname.replace(/\/+$/, '');
      const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
      if (parts[0] !== API || parts[1] !== 'Accounts' || !parts[2]) throw notFound(path);
      const account = authenticate(req);
      const pathSid = parts[2].replace(/\.json$/, '');
      if (pathSid !== account.sid) throw notFound(path);
      if (await applyFailure(account.sid, res)) return;
      const rest = parts.slice(3);

      if (rest.length === 0 && parts[2].endsWith('.json') && method === 'GET') return sendJson(res, 200, accountJson(account));

      if (rest[0] === 'IncomingPhoneNumbers.json' && rest.length === 1 && method === 'GET') {
        const filter = url.searchParams.get('PhoneNumber') ?? '';
        const pageSize = Math.min(1000, Math.max(1, Number(url.searchParams.get('PageSize')) || 50));
        const page = Math.max(0, Number(url.searchParams.get('Page')) || 0);
        const all = [...account.numbers.values()].filter((n) => matchesNumberFilter(n.phoneNumber, filter));
        const items = all.slice(page * pageSize, (page + 1) * pageSize);
        const listUri = `/${API}/Accounts/${account.sid}/IncomingPhoneNumbers.json`;
        const query = (p: number) => `?${new URLSearchParams({ ...(filter ? { PhoneNumber: filter } : {}), PageSize: String(pageSize), Page: String(p) })}`;
        return sendJson(res, 200, {
          incoming_phone_numbers: items.map((n) => numberJson(account, n)),
          page,
          page_size: pageSize,
          start: page * pageSize,
          end: page * pageSize + Math.max(0, items.length - 1),
          uri: `${listUri}${query(page)}`,
          first_page_uri: `${listUri}${query(0)}`,
          next_page_uri: (page + 1) * pageSize < all.length ? `${listUri}${query(page + 1)}` : null,
          previous_page_uri: page > 0 ? `${listUri}${query(page - 1)}` : null,
        });
      }

      if (rest[0] === 'IncomingPhoneNumbers' && rest.length === 2 && rest[1]!.endsWith('.json')) {
        const number = account.numbers.get(rest[1]!.slice(0, -'.json'.length));
        if (!number) throw notFound(path);
        if (method === 'GET') return sendJson(res, 200, numberJson(account, number));
        if (method === 'POST') {
          const form = await readForm(req);
          const checkUrl = (name: string) => {
            const value = form.get(name);
            if (value === null) return undefined;
            if (value !== '') {
              try {
                const u = new URL(value);
                if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
              } catch {
                throw new TwilioApiError(400, 21502, `${name} is not valid: ${value}`);
              }
            }
            return value;
          };
          const checkMethod = (name: string) => {
            const value = form.get(name);
            if (value === null) return undefined;
            const upper = value.toUpperCase();
            if (upper !== 'GET' && upper !== 'POST') throw new TwilioApiError(400, 21401, `${name} must be GET or POST`);
            return upper;
          };
          const voiceUrl = checkUrl('VoiceUrl');
          const statusCallback = checkUrl('StatusCallback');
          const voiceMethod = checkMethod('VoiceMethod');
          const statusCallbackMethod = checkMethod('StatusCallbackMethod');
          if (voiceUrl !== undefined) number.voiceUrl = voiceUrl;
          if (statusCallback !== undefined) number.statusCallback = statusCallback;
          if (voiceMethod) number.voiceMethod = voiceMethod;
          if (statusCallbackMethod) number.statusCallbackMethod = statusCallbackMethod;
          const friendlyName = form.get('FriendlyName');
          if (friendlyName !== null) number.friendlyName = friendlyName;
          number.dateUpdated = new Date().toISOString();
          return sendJson(res, 200, numberJson(account, number));
        }
      }

      if (rest[0] === 'Recordings' && rest.length === 2 && method === 'DELETE') {
        // Twilio: 204 with no body; the recording (and its media) is gone, so a second DELETE is a 404.
        const match = /^(RE[0-9a-f]{32})\.json$/.exec(rest[1]!);
        if (!match || isDeleted(account.sid, match[1]!)) throw notFound(path);
        deletedRecordings.push({ accountSid: account.sid, sid: match[1]!, at: new Date().toISOString() });
        res.writeHead(204);
        res.end();
        return;
      }

      if (rest[0] === 'Calls' && rest.length === 2 && method === 'POST') {
        const match = /^(CA[0-9a-f]{32})\.json$/.exec(rest[1]!);
        if (!match) throw notFound(path);
        const sid = match[1]!;
        const form = await readForm(req);
        const status = form.get('Status');
        if (status !== 'completed' && status !== 'canceled') throw new TwilioApiError(400, 21218, 'Invalid Status: only completed or canceled');
        if (endedCalls.some((c) => c.accountSid === account.sid && c.sid === sid)) throw new TwilioApiError(400, 21220, 'Call is not in-progress. Cannot redirect.');
        const at = new Date().toISOString();
        endedCalls.push({ accountSid: account.sid, sid, at, status });
        return sendJson(res, 200, {
          sid,
          account_sid: account.sid,
          status: status === 'canceled' ? 'canceled' : 'completed',
          end_time: twilioDate(at),
          date_updated: twilioDate(at),
          api_version: API,
          uri: `/${API}/Accounts/${account.sid}/Calls/${sid}.json`,
        });
      }

      if (rest[0] === 'Recordings' && rest.length === 2 && method === 'GET') {
        const match = /^(RE[0-9a-f]{32})(\.mp3|\.wav|\.json)?$/.exec(rest[1]!);
        if (!match || isDeleted(account.sid, match[1]!)) throw notFound(path);
        const [, sid, ext] = match;
        if (ext === '.json') {
          return sendJson(res, 200, {
            sid,
            account_sid: account.sid,
            status: 'completed',
            duration: '1',
            channels: 1,
            source: 'StartCallRecordingTwiML',
            media_url: `${url.origin}/${API}/Accounts/${account.sid}/Recordings/${sid}`,
            uri: `/${API}/Accounts/${account.sid}/Recordings/${sid}.json`,
          });
        }
        const audio = ext === '.mp3' ? silentMp3() : silentWav();
        res.writeHead(200, { 'content-type': ext === '.mp3' ? 'audio/mpeg' : 'audio/x-wav', 'content-length': audio.length });
        res.end(audio);
        return;
      }
      throw notFound(path);
    } catch (error) {
      if (!(error instanceof TwilioApiError)) throw error;
      sendError(res, error);
    }
  }

  const findNumber = (phoneNumber: string): { account: FakeTwilioAccount; number: FakeTwilioNumber } | null => {
    for (const account of accounts.values()) {
      for (const number of account.numbers.values()) if (number.phoneNumber === phoneNumber) return { account, number };
    }
    return null;
  };

  const readJson = (req: IncomingMessage) =>
    readJsonObject(req, MAX_BODY, {
      tooLarge: () => new TwilioApiError(413, 20001, 'Request body too large'),
      invalid: () => new TwilioApiError(400, 20001, 'The body must be a JSON object'),
    });

  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

  function parseTurns(value: unknown): ScriptTurn[] {
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new TwilioApiError(400, 20001, 'turns must be an array');
    return value.map((turn: unknown) => {
      const t = (turn ?? {}) as Record<string, unknown>;
      if (t.silence === true) return { silence: true };
      if (typeof t.dtmf === 'string' && /^[0-9*#]$/.test(t.dtmf)) return { dtmf: t.dtmf };
      if (typeof t.speech === 'string') {
        const interruptAfterTokens = num(t.interruptAfterTokens);
        if (interruptAfterTokens !== undefined && (!Number.isInteger(interruptAfterTokens) || interruptAfterTokens < 1)) {
          throw new TwilioApiError(400, 20001, 'interruptAfterTokens must be a whole number of at least 1');
        }
        const lang = str(t.lang);
        return {
          speech: t.speech,
          confidence: num(t.confidence) ?? 0.9,
          ...(interruptAfterTokens !== undefined ? { interruptAfterTokens } : {}),
          ...(lang ? { lang } : {}),
        };
      }
      throw new TwilioApiError(400, 20001, "each turn is {speech, confidence, interruptAfterTokens?, lang?}, {silence: true} or {dtmf: '0'-'9', '*' or '#'}");
    });
  }

  async function simulate(body: Record<string, unknown>): Promise<SimulatedCall> {
    const to = str(body.to);
    if (!to) throw new TwilioApiError(400, 20001, 'to (the called number) is required');
    const found = findNumber(to);
    if (!found) throw new TwilioApiError(404, 20404, `No registered account owns ${to}`);
    if (!found.number.voiceUrl) throw new TwilioApiError(409, 20001, `${to} has no voice URL configured (set up the Twilio Voice integration first)`);
    const hangup = body.hangup === 'caller' || body.hangup === 'after-script' || body.hangup === 'stay' ? body.hangup : undefined;
    const finalStatus = ['completed', 'busy', 'no-answer', 'failed', 'canceled'].includes(body.finalStatus as string)
      ? (body.finalStatus as 'completed')
      : undefined;
    const rawWire = body.relayWire && typeof body.relayWire === 'object' ? (body.relayWire as Record<string, unknown>) : null;
    const wire: RelayWire | null = rawWire
      ? {
          ...(rawWire.interruptDuration === 'string' || rawWire.interruptDuration === 'number' ? { interruptDuration: rawWire.interruptDuration as 'string' | 'number' } : {}),
          ...(rawWire.extraFields === true ? { extraFields: true } : {}),
        }
      : null;
    // Imported on first use: the simulator (and its XML parser) only load when a call is played.
    const { simulateCall } = await import('./call-simulator.js');
    return simulateCall({
      voiceUrl: found.number.voiceUrl,
      statusCallbackUrl: found.number.statusCallback,
      accountSid: found.account.sid,
      authToken: found.account.authToken,
      from: str(body.from) ?? '+15005550006',
      to,
      turns: parseTurns(body.turns),
      ...(str(body.callSid) ? { callSid: str(body.callSid) } : {}),
      ...(hangup ? { hangup } : {}),
      ...(num(body.callDurationSec) !== undefined ? { callDurationSec: num(body.callDurationSec) } : {}),
      ...(finalStatus ? { finalStatus } : {}),
      relay: {
        ...(num(body.relayTurnTimeoutMs) !== undefined ? { turnTimeoutMs: num(body.relayTurnTimeoutMs) } : {}),
        ...(wire ? { wire } : {}),
      },
      twilioApiUrl: baseUrl,
    });
  }

  async function handleControl(req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
    try {
      const action = url.pathname.slice('/_test/'.length).replace(/\/+$/, '');
      if (method === 'POST' && action === 'accounts') {
        const body = await readJson(req);
        const accountSid = str(body.accountSid);
        if (accountSid && !/^AC[0-9a-fA-F]{32}$/.test(accountSid)) throw new TwilioApiError(400, 20001, 'accountSid must be AC + 32 hex digits');
        const numbers = Array.isArray(body.numbers) ? body.numbers.filter((n): n is string => typeof n === 'string') : [];
        const account = register({ accountSid, authToken: str(body.authToken), friendlyName: str(body.friendlyName), status: str(body.status), numbers });
        return sendJson(res, 200, {
          accountSid: account.sid,
          authToken: account.authToken,
          numbers: [...account.numbers.values()].map((n) => ({ sid: n.sid, phoneNumber: n.phoneNumber })),
        });
      }
      if (method === 'GET' && action === 'numbers') {
        const accountSid = url.searchParams.get('accountSid');
        const phoneNumber = url.searchParams.get('phoneNumber');
        const numbers = [...accounts.values()]
          .filter((a) => accountSid === null || a.sid === accountSid)
          .flatMap((a) => [...a.numbers.values()].map((n) => ({ accountSid: a.sid, ...n })))
          .filter((n) => phoneNumber === null || n.phoneNumber === phoneNumber)
          .map(({ accountSid: sid, sid: numberSid, phoneNumber: pn, voiceUrl, voiceMethod, statusCallback, statusCallbackMethod }) => ({
            accountSid: sid,
            sid: numberSid,
            phoneNumber: pn,
            voiceUrl,
            voiceMethod,
            statusCallback,
            statusCallbackMethod,
          }));
        return sendJson(res, 200, { numbers });
      }
      if (method === 'POST' && action === 'fail') {
        const body = await readJson(req);
        const accountSid = str(body.accountSid);
        if (!accountSid) throw new TwilioApiError(400, 20001, 'accountSid is required');
        rules.set(accountSid, {
          count: num(body.count) ?? 1,
          status: num(body.status) ?? 503,
          code: num(body.code) ?? 20503,
          message: str(body.message) ?? 'Service Unavailable',
          delayMs: num(body.delayMs) ?? 0,
        });
        return sendJson(res, 200, { ok: true });
      }
      if (method === 'POST' && action === 'calls') return sendJson(res, 200, await simulate(await readJson(req)));
      if (method === 'GET' && action === 'deletions') {
        const accountSid = url.searchParams.get('accountSid');
        const mine = (r: FakeTwilioRemoval) => accountSid === null || r.accountSid === accountSid;
        return sendJson(res, 200, { recordings: deletedRecordings.filter(mine), endedCalls: endedCalls.filter(mine) });
      }
      if (method === 'POST' && action === 'reset') {
        accounts.clear();
        rules.clear();
        deletedRecordings.length = 0;
        endedCalls.length = 0;
        return sendJson(res, 200, { ok: true });
      }
      throw new TwilioApiError(404, 20404, `Unknown control call ${method} ${url.pathname}`);
    } catch (error) {
      if (!(error instanceof TwilioApiError)) throw error;
      sendError(res, error);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
    if (await faults.control(req, res, url.pathname)) return;
    if (url.pathname.startsWith('/_test/')) return handleControl(req, res, method, url);
    if (url.pathname === '/' && method === 'GET') return sendJson(res, 200, { service: 'fake Twilio REST API (AgentDesk local runtime)', api: `/${API}` });
    if (await faults.intercept(req, res, [url.pathname])) return;
    return handleApi(req, res, method, url);
  }

  const server: Server = createServer((req, res) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const requestUrl = new URL(req.url ?? '/', baseUrl || 'http://fake-twilio');
    handle(req, res, method, requestUrl).catch((error: unknown) => {
      options.log?.('error', `[twilio] ${(error as Error).message}`);
      sendError(res, new TwilioApiError(500, 20500, 'Internal Server Error'));
    });
  });

  const port = await listen(server, options.port ?? 0, host);
  baseUrl = `http://${host}:${port}`;
  options.log?.('info', `[twilio] fake Twilio REST API at ${baseUrl}`);

  const close = closeOnce(server, { cancel: () => (waits.cancel(), faults.close()) });

  return { url: baseUrl, port, accounts, deletedRecordings, endedCalls, register, close, stop: close };
}
