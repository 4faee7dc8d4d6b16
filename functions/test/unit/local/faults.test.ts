/**
 * The fakes' failure switches (local/faults.ts, issue 34): each kind answers as the provider
 * would and clears; count- and time-based faults stop by themselves; Retry-After is sent; faults
 * are scoped by key and path; bad faults are a 400 that arms nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../../local/fake-openai/server.js';
import { startFakeTwilio, type FakeTwilio } from '../../../local/fake-twilio/server.js';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../local/fake-whatsapp/server.js';
import { startFakeStripe } from '../../../local/fake-stripe/server.js';
import type { FaultState } from '../../../local/faults.js';

let openai: FakeOpenAi;
let whatsapp: FakeWhatsApp;
let twilio: FakeTwilio;

beforeAll(async () => {
  [openai, whatsapp, twilio] = await Promise.all([startFakeOpenAi(), startFakeWhatsApp(), startFakeTwilio()]);
});
afterAll(async () => {
  await Promise.all([openai.close(), whatsapp.close(), twilio.close()]);
});
afterEach(async () => {
  for (const url of [openai.url, whatsapp.url, twilio.url]) await fetch(`${url}/_test/faults`, { method: 'DELETE' });
});

async function arm(url: string, fault: Record<string, unknown>): Promise<FaultState> {
  const res = await fetch(`${url}/_test/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fault) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { fault: FaultState }).fault;
}
async function faults(url: string): Promise<FaultState[]> {
  return ((await (await fetch(`${url}/_test/faults`)).json()) as { faults: FaultState[] }).faults;
}

const chat = (key = 'sk-test', signal?: AbortSignal) =>
  fetch(`${openai.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hola' }] }),
    ...(signal ? { signal } : {}),
  });

const sendWa = (phoneId: string) =>
  fetch(`${whatsapp.url}/v21.0/${phoneId}/messages`, {
    method: 'POST',
    headers: { authorization: 'Bearer EAAGtoken', 'content-type': 'application/json' },
    body: JSON.stringify({ messaging_product: 'whatsapp', to: '34600111222', type: 'text', text: { body: 'hi' } }),
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('fake OpenAI failure switches', () => {
  it('a count-based 429 answers OpenAI\'s rate-limit error with Retry-After and the x-ratelimit headers, then stops by itself', async () => {
    const fault = await arm(openai.url, { kind: 'status', status: 429, retryAfter: 2, times: 2 });
    expect(fault).toMatchObject({ kind: 'status', status: 429, times: 2, hits: 0, active: true, match: 'all' });
    for (let i = 0; i < 2; i++) {
      const res = await chat();
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(res.headers.get('x-ratelimit-remaining-requests')).toBe('0');
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
      expect(await res.json()).toEqual({
        error: { message: expect.stringContaining('Rate limit reached'), type: 'requests', param: null, code: 'rate_limit_exceeded' },
      });
    }
    expect((await chat()).status).toBe(200);
    expect(await faults(openai.url)).toEqual([expect.objectContaining({ id: fault.id, hits: 2, active: false, ended: 'used' })]);
  });

  it('a 500 and a 401 carry OpenAI\'s bodies; code insufficient_quota is a 429 of its own kind', async () => {
    await arm(openai.url, { kind: 'status', status: 500, times: 1 });
    let res = await chat();
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null } });
    await arm(openai.url, { kind: 'status', code: 'insufficient_quota', times: 1 });
    res = await chat();
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('insufficient_quota');
    await arm(openai.url, { kind: 'status', status: 401, times: 1 });
    res = await chat();
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
  });

  it('a time-based fault stops when its time is up', async () => {
    await arm(openai.url, { kind: 'status', status: 503, forMs: 300 });
    expect((await chat()).status).toBe(503);
    expect((await chat()).status).toBe(503);
    await sleep(350);
    expect((await chat()).status).toBe(200);
    expect(await faults(openai.url)).toEqual([expect.objectContaining({ hits: 2, active: false, ended: 'expired' })]);
  });

  it('scoped by key and path: other keys and other calls are served', async () => {
    await arm(openai.url, { kind: 'status', status: 500, match: { key: 'sk-faulty', path: '/chat/completions', method: 'POST' } });
    expect((await chat('sk-faulty')).status).toBe(500);
    expect((await chat('sk-healthy')).status).toBe(200);
    const models = await fetch(`${openai.url}/v1/models`, { headers: { authorization: 'Bearer sk-faulty' } });
    expect(models.status).toBe(200);
    // The /v1 form of the path matches too.
    await fetch(`${openai.url}/_test/faults`, { method: 'DELETE' });
    await arm(openai.url, { kind: 'status', status: 502, match: { path: '/v1/chat/*' } });
    expect((await chat()).status).toBe(502);
  });

  it('a hang holds the call until the fault is cleared, then the call is served as usual', async () => {
    const fault = await arm(openai.url, { kind: 'hang', id: 'model-hang' });
    let settled = false;
    const pending = chat().then((res) => {
      settled = true;
      return res;
    });
    await sleep(300);
    expect(settled).toBe(false);
    expect(await faults(openai.url)).toEqual([expect.objectContaining({ id: fault.id, hits: 1, held: 1, active: true })]);
    const cleared = await fetch(`${openai.url}/_test/faults/model-hang`, { method: 'DELETE' });
    expect(await cleared.json()).toEqual({ cleared: 1 });
    const res = await pending;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { object: string }).object).toBe('chat.completion');
  });

  it('a hang ends for a client that gives up, and a time-based hang lets its calls go when its time is up', async () => {
    await arm(openai.url, { kind: 'hang', id: 'forever' });
    await expect(chat('sk-test', AbortSignal.timeout(200))).rejects.toThrow();
    await sleep(50);
    expect(await faults(openai.url)).toEqual([expect.objectContaining({ id: 'forever', hits: 1, held: 0, active: true })]);
    await fetch(`${openai.url}/_test/faults`, { method: 'DELETE' });

    await arm(openai.url, { kind: 'hang', forMs: 300 });
    const started = Date.now();
    const res = await chat();
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('a drop destroys the connection; cleared, calls are served again', async () => {
    await arm(openai.url, { kind: 'drop', id: 'cut' });
    await expect(chat()).rejects.toThrow(/fetch failed/);
    await fetch(`${openai.url}/_test/faults/cut`, { method: 'DELETE' });
    expect((await chat()).status).toBe(200);
  });

  it('refuses a malformed fault with a 400 and arms nothing', async () => {
    const bad = [
      { kind: 'explode' },
      { kind: 'status', status: 42 },
      { kind: 'status', times: 0 },
      { kind: 'status', forMs: -1 },
      { kind: 'hang', status: 500 },
      { kind: 'status', match: { pathh: '/x' } },
      { kind: 'status', retryAfter: -3 },
      { kind: 'status', tiems: 3 },
      'status',
    ];
    for (const body of bad) {
      const res = await fetch(`${openai.url}/_test/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBeTruthy();
    }
    const notJson = await fetch(`${openai.url}/_test/faults`, { method: 'POST', body: '{' });
    expect(notJson.status).toBe(400);
    expect(await faults(openai.url)).toEqual([]);
    expect((await fetch(`${openai.url}/_test/faults/none`, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('fake WhatsApp Graph failure switches', () => {
  it('code 131047 answers Meta\'s re-engagement error object (400, error_data.details, fbtrace_id) for one phone id only', async () => {
    await arm(whatsapp.url, { kind: 'status', code: 131047, match: { path: '/111222333/messages' } });
    const res = await sendWa('111222333');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        message: '(#131047) Re-engagement message',
        type: 'OAuthException',
        code: 131047,
        error_data: { messaging_product: 'whatsapp', details: expect.stringContaining('more than 24 hours') },
        fbtrace_id: expect.any(String),
      },
    });
    expect((await sendWa('999888777')).status).toBe(200);
  });

  it('code 190 is a 401 with error_subcode; a bare 500 is Meta\'s code 131000; 503 is the transient code 2 with Retry-After', async () => {
    await arm(whatsapp.url, { kind: 'status', code: 190, times: 1 });
    let res = await sendWa('1');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 190, error_subcode: 463, type: 'OAuthException', message: expect.stringContaining('Error validating access token') } });
    await arm(whatsapp.url, { kind: 'status', status: 500, times: 1 });
    res = await sendWa('1');
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: { code: 131000, message: '(#131000) Something went wrong' } });
    await arm(whatsapp.url, { kind: 'status', status: 503, retryAfter: 5, times: 1 });
    res = await sendWa('1');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toMatchObject({ error: { code: 2, is_transient: true } });
    // Faulted calls are not recorded as sends; the fault counts them.
    expect(whatsapp.sent.filter((s) => s.phoneId === '1')).toEqual([]);
  });

  it('code 130429 and 131026 carry their own texts; a body replaces the whole answer', async () => {
    await arm(whatsapp.url, { kind: 'status', code: 130429, times: 1 });
    expect(await (await sendWa('2')).json()).toMatchObject({ error: { code: 130429, message: '(#130429) Rate limit hit' } });
    await arm(whatsapp.url, { kind: 'status', code: 131026, times: 1 });
    expect(await (await sendWa('2')).json()).toMatchObject({ error: { code: 131026, message: '(#131026) Message Undeliverable' } });
    await arm(whatsapp.url, { kind: 'status', status: 418, body: { custom: true }, times: 1 });
    const res = await sendWa('2');
    expect(res.status).toBe(418);
    expect(await res.json()).toEqual({ custom: true });
  });
});

describe('fake Twilio failure switches', () => {
  it('20003 is Twilio\'s 401 body, 20429 a 429 with Retry-After, a bare 503 is 20503; scoped to one account sid', async () => {
    const account = twilio.register({ numbers: ['+15005550006'] });
    const other = twilio.register({});
    const get = (a: typeof account) =>
      fetch(`${twilio.url}/2010-04-01/Accounts/${a.sid}.json`, { headers: { authorization: `Basic ${Buffer.from(`${a.sid}:${a.authToken}`).toString('base64')}` } });
    await arm(twilio.url, { kind: 'status', code: 20003, times: 1, match: { key: account.sid } });
    let res = await get(account);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 });
    await arm(twilio.url, { kind: 'status', code: 20429, retryAfter: 1, times: 1, match: { key: account.sid } });
    res = await get(account);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toMatchObject({ code: 20429, status: 429 });
    await arm(twilio.url, { kind: 'status', status: 503, match: { key: account.sid } });
    res = await get(account);
    expect(await res.json()).toEqual({ code: 20503, message: 'Service Unavailable', more_info: 'https://www.twilio.com/docs/errors/20503', status: 503 });
    expect((await get(other)).status).toBe(200);
  });
});

describe('fake Stripe failure switches', () => {
  it('a 429 answers Stripe\'s rate_limit error on /v1 only', async () => {
    const stripe = await startFakeStripe({ webhookSecret: 'whsec_test' });
    try {
      await arm(stripe.url, { kind: 'status', status: 429, times: 1 });
      const res = await fetch(`${stripe.url}/v1/customers`, { headers: { authorization: 'Bearer sk_test_x' } });
      expect(res.status).toBe(429);
      expect(await res.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'rate_limit' } });
      expect((await fetch(`${stripe.url}/v1/customers`, { headers: { authorization: 'Bearer sk_test_x' } })).status).toBe(200);
    } finally {
      await stripe.stop();
    }
  });
});
