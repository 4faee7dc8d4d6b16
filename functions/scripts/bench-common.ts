/**
 * What the in-process benches (bench-contacts, bench-runtime, bench-knowledge, bench-whatsapp-webhook)
 * share (the voice benches too): their `--name=N` options, percentiles, the Markdown result table, seeded random numbers
 * and unit vectors so runs are comparable, and a registered, subscribed user on a local stack. Not a
 * bench itself.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { VOICE_DEFAULTS, type ConversationMode } from '../src/contract/voice.js';
import { dynamoClient } from '../local/services.js';
import { EMBEDDING_DIMENSIONS } from '../src/domain/ai/ports.js';

const args = process.argv.slice(2);
/** The number given as `--name=N`, or the fallback. */
export const arg = (name: string, fallback: number) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);

/** The p-th percentile (nearest rank) of xs. */
export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

/**
 * The longest chain of requests each started after the previous one ended: the round trips a
 * message waits for one after another (its latency on a quiet machine is about this many
 * round trips, whatever the load of the machine measuring it).
 */
export function longestChain(spans: ReadonlyArray<[number, number]>): number {
  const byEnd = [...spans].sort((a, b) => a[1] - b[1]);
  const chain: number[] = [];
  byEnd.forEach(([start], i) => {
    let best = 0;
    for (let j = 0; j < i; j++) if (byEnd[j]![1] <= start) best = Math.max(best, chain[j]!);
    chain.push(best + 1);
  });
  return Math.max(0, ...chain);
}

/** A Markdown table: the first column left-aligned, the others right-aligned. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => [...(r[i] ?? '')].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so runs are comparable. */
export function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random embedding-sized vector of length 1. */
export function randomUnitVector(random: () => number): Float32Array {
  const v = new Float32Array(EMBEDDING_DIMENSIONS);
  let norm = 0;
  for (let i = 0; i < v.length; i++) {
    v[i] = random() * 2 - 1;
    norm += v[i]! * v[i]!;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The password of every bench user (registeredToken). */
export const BENCH_PASSWORD = 'Secret#123';

/** A new user registered through the API (verification code read from the local SES mailbox). */
export async function registeredToken(apiUrl: string, mailboxUrl: string, name = 'Bench User'): Promise<{ token: string; userId: string; email: string }> {
  const email = `bench-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const call = async (p: string, body: unknown) => {
    const res = await fetch(`${apiUrl}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { data?: { token: string; user: { _id: string } }; message?: string } };
  };
  await call('/api/send-verification', { email });
  let code: string | undefined;
  for (let i = 0; i < 50 && !code; i++) {
    const { emails } = (await (await fetch(`${mailboxUrl}/store`)).json()) as { emails: { destination: { to: string[] }; body: { text?: string } }[] };
    code = emails.filter((m) => m.destination.to.some((t) => t.includes(email))).at(-1)?.body.text?.match(/\b[A-Z2-9]{10}\b/)?.[0];
    if (!code) await sleep(100);
  }
  if (!code) throw new Error('no verification code e-mailed');
  const res = await call('/api/register', { name, email, password: BENCH_PASSWORD, verificationCode: code });
  if (res.status !== 201 || !res.body.data) throw new Error(`register failed: ${res.status} ${res.body.message}`);
  return { token: res.body.data.token, userId: res.body.data.user._id, email };
}

/** A fresh access token through POST /api/login (cognito-local runs the pre-token trigger: a member's carries the account). */
export async function signedIn(apiUrl: string, email: string, password = BENCH_PASSWORD): Promise<string> {
  const res = await fetch(`${apiUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const body = (await res.json()) as { data?: { token: string }; message?: string };
  if (res.status !== 200 || !body.data) throw new Error(`login failed: ${res.status} ${body.message}`);
  return body.data.token;
}

/**
 * Counts the DynamoDB requests of the app's own client (the local gateway runs the handlers in
 * the bench's process, so every request a call makes goes through it): reset before a call, read
 * after; `kinds` names them ("4 Query, 2 Get, 1 BatchGet").
 */
export function dynamoRequestCounter(client: { send: (command: never) => Promise<unknown> }): { reset(): void; readonly count: number; readonly kinds: string } {
  const names: string[] = [];
  const send = client.send.bind(client);
  client.send = ((command: never) => (names.push((command as { constructor: { name: string } }).constructor.name.replace(/Command$/, '')), send(command))) as typeof client.send;
  return {
    reset() {
      names.length = 0;
    },
    get count() {
      return names.length;
    },
    get kinds() {
      const by = new Map<string, number>();
      for (const name of names) by.set(name, (by.get(name) ?? 0) + 1);
      return [...by].map(([name, n]) => `${n} ${name}`).join(', ');
    },
  };
}

/** An active Enterprise subscription for the user (paid routes such as integration setup answer 402 without one). */
export async function subscribe(stack: { endpoints: { dynamodb: string }; tableName: string }, userId: string): Promise<void> {
  const db = DynamoDBDocumentClient.from(dynamoClient(stack.endpoints.dynamodb));
  await db.send(
    new PutCommand({
      TableName: stack.tableName,
      Item: { pk: `USER#${userId}`, sk: 'SUBSCRIPTION', entity: 'subscription', userId, plan: 'enterprise', status: 'active', currentPeriodStart: new Date().toISOString(), version: 1 },
    }),
  );
}

/** n random decimal digits (phone numbers of simulated callers and business numbers). */
export const digits = (n: number) => Array.from({ length: n }, () => randomInt(0, 10)).join('');

/**
 * What the voice benches share: a registered, subscribed user with ChatGPT connected, one agent,
 * a fake Twilio account and number set up through the app, and voice settings in `mode`. `call`
 * sends an authenticated API request and answers its data.
 */
export async function voiceBenchUser(
  stack: { apiUrl: string; mailboxUrl: string; twilioApiUrl: string | null; endpoints: { dynamodb: string }; tableName: string },
  mode: ConversationMode,
) {
  if (!stack.twilioApiUrl) throw new Error('the bench needs the fake Twilio');
  const { token, userId } = await registeredToken(stack.apiUrl, stack.mailboxUrl);
  await subscribe(stack, userId);
  const call = async (method: string, p: string, body: unknown) => {
    const res = await fetch(`${stack.apiUrl}${p}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    const json = (await res.json()) as { data?: Record<string, unknown>; message?: string };
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${json.message}`);
    return json.data ?? {};
  };
  await call('POST', '/api/integrations/chatgpt/setup', { apiKey: `sk-bench-${randomBytes(8).toString('hex')}`, model: 'gpt-4o' });
  // Created from its name, then given instructions and enabled: new agents start disabled (issue 19).
  const agent = (await call('POST', '/api/agents', { name: 'Sonia' })) as { _id: string };
  await call('PUT', `/api/agents/${agent._id}`, { description: 'Receptionist', instructions: 'Be brief', enabled: true });
  const number = `+3491${digits(7)}`;
  const accountRes = await fetch(`${stack.twilioApiUrl}/_test/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ numbers: [number] }) });
  const account = (await accountRes.json()) as { accountSid: string; authToken: string };
  const setup = (await call('POST', '/api/integrations/twilio-voice/setup', { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: number })) as {
    webhookUrl: string;
    statusCallbackUrl: string;
  };
  const setMode = (conversationMode: ConversationMode) => call('PUT', '/api/voice-settings', { ...VOICE_DEFAULTS, conversationMode });
  await setMode(mode);
  return { call, number, account, setup, setMode };
}
