/** What a person does in the app, shared by the e2e files: open a page, sign up, log in, set up a subscribed user with an agent. */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, BrowserContextOptions, Download, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, onTestFailed, onTestFinished } from 'vitest';
import type { MintedSubscription } from '../../functions/test/support/push.js';
import { metaDelivery, signMetaBody, textMessage, webhookPath, type GraphSend, type WaCustomer } from '../../functions/test/support/whatsapp.js';
import { connectBrowser, waitForMailCode } from './browser.js';

export const ONBOARDING_HEADING = 'An agent that never misses a call';
export const PASSWORD = 'Sunny-Day#42';

/** Real round trips (Cognito, DynamoDB Local, SES) on a busy 2-core CI machine: poll, don't sleep. */
export const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

/** The calling test file's connection to the run's one headless Chromium, closed after it; returns a getter. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await connectBrowser(inject('browserWsEndpoint'));
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('The browser starts in beforeAll');
    return browser;
  };
}

/** A fresh browser context (1280×800 unless `viewport` says otherwise; `storageState` carries a session over); if the test fails, what the page showed is saved under test-results/. */
export async function newPage(
  browser: Browser,
  options: Pick<BrowserContextOptions, 'locale' | 'timezoneId' | 'viewport' | 'isMobile' | 'hasTouch' | 'storageState'> = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  watchPage(page);
  return page;
}

const cspViolationsOf = new WeakMap<Page, string[]>();

/** What Chromium reported against the CSP on this page so far (listened to from the first call). */
function cspViolations(page: Page): string[] {
  const known = cspViolationsOf.get(page);
  if (known) return known;
  const seen: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) seen.push(msg.text());
  });
  cspViolationsOf.set(page, seen);
  return seen;
}

/**
 * Checks the page in the running test: the app must run under the CSP the local gateway sends
 * (the same as CloudFront's), so any violation Chromium reports fails it; if it fails, a
 * screenshot goes under test-results/. newPage does it for the test that opens the page; a
 * later test of the same file that goes on with the page calls it again.
 */
export function watchPage(page: Page): void {
  const violations = cspViolations(page);
  onTestFinished(() => {
    expect(violations, 'CSP violations reported by the browser').toEqual([]);
  });
  onTestFailed(async ({ task }) => {
    await mkdir('test-results', { recursive: true });
    const file = `test-results/e2e-${task.name.replace(/\W+/g, '-').slice(0, 60)}.png`;
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    console.error(`e2e failure at ${page.url()}; screenshot: ${file}`);
  });
}

/** The register page's words in each UI language. */
const SIGN_UP = {
  en: {
    name: 'Name',
    email: 'Email',
    send: 'Send Code',
    sent: /60 minutes/,
    code: 'Verification Code',
    password: 'Password',
    confirm: 'Confirm Password',
    terms: /I agree to the Terms of Service/,
    create: 'Create Account',
  },
  es: {
    name: 'Nombre',
    email: 'Correo electrónico',
    send: 'Enviar código',
    sent: /60 minutos/,
    code: 'Código de verificación',
    password: 'Contraseña',
    confirm: 'Confirmar contraseña',
    terms: /Acepto los/,
    create: 'Crear cuenta',
  },
};

/**
 * Signs up through the register page with the code the local mailbox received. `language`: the
 * language the page shows (Spanish for a Spanish browser that chose nothing), whose words it uses.
 */
export async function register(page: Page, appUrl: string, mailboxUrl: string, email: string, language: 'en' | 'es' = 'en'): Promise<void> {
  const words = SIGN_UP[language];
  await page.goto(`${appUrl}/register`);
  await page.getByLabel(words.name, { exact: true }).fill(language === 'es' ? 'Lucía Muñoz' : 'Dana Dentist');
  await page.getByLabel(words.email, { exact: true }).fill(email);
  await page.getByRole('button', { name: words.send }).click();
  // The note appears once the server accepted the request and e-mailed the code.
  await eventually(() => page.getByText(words.sent).count()).toBeGreaterThan(0);
  const code = await waitForMailCode(mailboxUrl, email, /\b([A-Z0-9]{10})\b/);
  await page.getByLabel(words.code).fill(code);
  await page.getByLabel(words.password, { exact: true }).fill(PASSWORD);
  await page.getByLabel(words.confirm).fill(PASSWORD);
  await page.getByRole('checkbox', { name: words.terms }).check();
  await page.getByRole('button', { name: words.create }).click();
}

export async function login(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Path and query of the page's URL. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** The signed-in user's id, as the app itself learns it (GET /api/me with the stored session). */
export async function userIdOf(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const session = JSON.parse(localStorage.getItem('agentdesk.session') ?? '{}') as { token?: string };
    const res = await fetch('/api/me', { headers: { authorization: `Bearer ${session.token}` } });
    const body = (await res.json()) as { data: { _id: string } };
    return body.data._id;
  });
}

/** The stack's DynamoDB Local, for the few facts a browser cannot see. */
function table(): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
}

/**
 * How many of the user's WhatsApp customer messages the agent has not settled yet (still
 * 'received' or 'replying': not answered, nor left to a person). 0 once every stored message
 * was taken up: e.g. a message written while a person answers has been seen and left alone.
 */
export async function customerMessagesInFlight(userId: string): Promise<number> {
  const { Items = [] } = await table().send(
    new QueryCommand({
      TableName: inject('tableName'),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :wamid)',
      FilterExpression: '#dir = :in AND #state IN (:received, :replying)',
      ExpressionAttributeNames: { '#dir': 'dir', '#state': 'state' },
      ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':wamid': 'WAMID#', ':in': 'in', ':received': 'received', ':replying': 'replying' },
      ConsistentRead: true,
    }),
  );
  return Items.length;
}

/**
 * Gives a user an active trial the way the billing webhook records one, for tests about
 * features behind the subscription (billing-flow.test.ts covers paying through the checkout).
 */
export async function activateTrial(userId: string): Promise<void> {
  const client = table();
  const now = Date.now();
  await client.send(
    new PutCommand({
      TableName: inject('tableName'),
      Item: {
        pk: `USER#${userId}`,
        sk: 'SUBSCRIPTION',
        plan: 'professional',
        status: 'trialing',
        currentPeriodStart: new Date(now).toISOString(),
        currentPeriodEnd: new Date(now + 5 * 86_400_000).toISOString(),
        trialEnd: new Date(now + 5 * 86_400_000).toISOString(),
        cancelAtPeriodEnd: false,
      },
    }),
  );
}

/** Calls the API as the signed-in user (the session the app keeps in local storage). */
/** Moves the local stack's session clock (token checks and cognito-local) forward. */
export async function advanceServerClock(seconds: number): Promise<void> {
  const res = await fetch(`${inject('appUrl')}/_local/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceSeconds: seconds }),
  });
  if (!res.ok) throw new Error(`POST /_local/clock: ${res.status} ${await res.text()}`);
}

export async function callApi<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('agentdesk.session') ?? '{}') as { token?: string }).token ?? '');
  const res = await fetch(`${inject('appUrl')}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: T; message?: string };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json.message}`);
  return json.data as T;
}

/** What goes through webhooks, the queue, the model or the counters in DynamoDB: give it time on a busy machine. */
export const slowly = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 60_000, interval: 250 });

/** n random decimal digits (unique phone numbers per test). */
/** The inbox, opened now, and a customer's card in its active column once it is there. */
export async function activeCard(page: Page, appUrl: string, customerName: string): Promise<Locator> {
  await page.goto(`${appUrl}/conversations`);
  const card = page.getByTestId('conversation-column-active').getByTestId('conversation-card').filter({ hasText: customerName });
  await slowly(() => card.count()).toBe(1);
  return card;
}

export const randomDigits = (n: number) => Array.from(randomBytes(n), (b) => String(b % 10)).join('');

/** POSTs to the fake Twilio's test control (`/_test/<path>`: accounts, calls); its JSON answer. */
export async function twilioControl<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${inject('twilioApiUrl')}/_test/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as T & { message?: string };
  if (!res.ok) throw new Error(`fake Twilio /_test/${path}: ${res.status} ${json.message}`);
  return json;
}

/** Registers `<label>+…@example.com`, waits for the onboarding page and gives the user an active trial; their e-mail. */
export async function subscribedUser(page: Page, label: string): Promise<string> {
  const email = `${label}+${randomUUID().slice(0, 8)}@example.com`;
  await register(page, inject('appUrl'), inject('mailboxUrl'), email);
  await eventually(() => page.getByRole('heading', { name: ONBOARDING_HEADING }).count()).toBe(1);
  await activateTrial(await userIdOf(page));
  return email;
}

/** Sets up ChatGPT (the stack's fake OpenAI accepts any sk- key) and one enabled agent through the API. */
/** `apiKey`: the ChatGPT key to connect with (a test that arms faults on the fake OpenAI scopes them to it). */
export async function chatGptAndAgent(
  page: Page,
  agent: { name: string; description: string; objective: string },
  apiKey = `sk-e2e-${randomBytes(8).toString('hex')}`,
): Promise<void> {
  await callApi(page, 'POST', '/api/integrations/chatgpt/setup', { apiKey });
  const created = await callApi<{ _id: string; enabled: boolean }>(page, 'POST', '/api/agents', { name: agent.name });
  // New agents start disabled until they have instructions (issue 19): give it some and enable it.
  expect(created.enabled).toBe(false);
  const saved = await callApi<{ enabled: boolean }>(page, 'PUT', `/api/agents/${created._id}`, {
    ...agent,
    instructions: 'Answer kindly and briefly.',
    knowledgeBase: '',
    priority: 1,
    enabled: true,
  });
  expect(saved.enabled).toBe(true);
}

/** A WhatsApp Business number connected through the API (the fake Graph API accepts any token), with its webhook's integration id. */
export interface WhatsAppBusiness {
  bearerToken: string;
  appSecret: string;
  phoneId: string;
  businessId: string;
  phoneNumber: string;
  integrationId: string;
}

export async function connectWhatsAppBusiness(page: Page): Promise<WhatsAppBusiness> {
  const business = {
    bearerToken: `EAAG${randomBytes(24).toString('hex')}`,
    appSecret: randomBytes(16).toString('hex'),
    phoneId: `1${randomDigits(14)}`,
    businessId: `2${randomDigits(14)}`,
    phoneNumber: '+34910000000',
  };
  const setup = await callApi<{ webhookUrl: string }>(page, 'POST', '/api/integrations/whatsapp-business/setup', business);
  return { ...business, integrationId: decodeURIComponent(setup.webhookUrl.split('/').pop() ?? '') };
}

/** The customer writes `text`: a delivery signed as Meta signs it, posted to the business's webhook. */
export async function customerWrites(business: WhatsAppBusiness, customer: WaCustomer, text: string): Promise<void> {
  const body = metaDelivery(
    { phoneId: business.phoneId, businessId: business.businessId, displayPhoneNumber: business.phoneNumber },
    { messages: [textMessage(customer, text)] },
  );
  const res = await fetch(`${inject('appUrl')}${webhookPath(business.integrationId)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaBody(body, business.appSecret) },
    body,
  });
  expect(res.status).toBe(200);
}

/** What the fake Graph API recorded as sent from the business number `phoneId`. */
export async function graphSends<T extends GraphSend = GraphSend>(phoneId: string): Promise<T[]> {
  const res = await fetch(`${inject('whatsappGraphUrl')}/_test/sent?${new URLSearchParams({ phoneId })}`);
  return ((await res.json()) as { sent: T[] }).sent;
}

/** Presses Connect on an integration card of the page shown (test id `integration-<type>`), once it is there. */
export async function pressConnect(page: Page, cardTestId: string): Promise<Locator> {
  const card = page.getByTestId(cardTestId);
  await eventually(() => card.getByRole('button', { name: 'Connect' }).count()).toBe(1);
  await card.getByRole('button', { name: 'Connect' }).click();
  return card;
}

/** A download's bytes: the browser runs apart from the tests (one shared Chromium server), so its file comes as a stream, not a path. */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Today's date (YYYY-MM-DD) in a time zone: what a dated file name or a 'created' column says there. */
export function dayIn(timeZone: string, at = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * Before any script of the page: its PushManager answers with a subscription the fake push
 * service minted (Chromium's own push service cannot be reached offline), and keeps the
 * application server key it was given in window.__pushServerKey (base64url).
 */
export async function useMintedSubscription(page: Page, minted: MintedSubscription): Promise<void> {
  await page.addInitScript((sub: MintedSubscription['subscription']) => {
    let current: PushSubscription | null = null;
    const w = window as unknown as { __pushServerKey?: string };
    PushManager.prototype.subscribe = async function subscribe(options?: PushSubscriptionOptionsInit) {
      const key = options?.applicationServerKey;
      const bytes = key instanceof ArrayBuffer ? new Uint8Array(key) : key && typeof key !== 'string' ? new Uint8Array(key.buffer, key.byteOffset, key.byteLength) : new Uint8Array();
      w.__pushServerKey = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      current = {
        endpoint: sub.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: null },
        getKey: () => null,
        toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
        unsubscribe: async () => {
          current = null;
          return true;
        },
      } as unknown as PushSubscription;
      return current;
    };
    PushManager.prototype.getSubscription = async function getSubscription() {
      return current;
    };
  }, minted.subscription);
}
