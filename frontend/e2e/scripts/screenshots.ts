/**
 * Before/after screenshots for an issue's closing note, from any checkout of the repository:
 *
 *   npx tsx frontend/e2e/scripts/screenshots.ts [--checkout <dir>] [--prefix before] [--out /work/shots] [--dist <built frontend>]
 *
 * It starts that checkout's local runtime on free ports (its own functions/local/stack.ts, as the
 * e2e global setup does) serving that checkout's built frontend (frontend/dist: build it first),
 * and drives Chromium in Spanish (es-ES, Europe/Madrid) as a Spanish clinic owner:
 *   <prefix>-onboarding.png    right after signing up in the Spanish UI, 1366×768
 *   <prefix>-inbox-phone.png   /conversations with a WhatsApp conversation opened, 390×844
 *   <prefix>-plan-dialog.png   the plan-change dialog (Starter → the next plan), 1366×768
 * The visible texts it clicks are read from the checkout's own Spanish catalogues, the fields are
 * found by their form names, so the same script runs on an old commit and on today's tree.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type * as LocalStackModule from '../../../functions/local/stack.js';
import type * as WhatsAppSupport from '../../../functions/test/support/whatsapp.js';
import { connectBrowser, startBrowserServer, waitForMailCode } from '../browser.js';

const { values: args } = parseArgs({
  options: {
    checkout: { type: 'string', default: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..') },
    prefix: { type: 'string', default: 'shot' },
    out: { type: 'string', default: 'test-results/screenshots' },
    // A build of one's own (vite build --outDir …), when others may rebuild the checkout's frontend/dist meanwhile.
    dist: { type: 'string' },
  },
});
const checkout = path.resolve(args.checkout);
const outDir = path.resolve(args.out);
const frontendDir = args.dist ? path.resolve(args.dist) : path.join(checkout, 'frontend/dist');
const PASSWORD = 'Sunny-Day#42';
const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

type Catalogue = Record<string, unknown>;
const readJson = (file: string): Catalogue => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Catalogue) : {});
/** The checkout's Spanish text for a dotted key (app catalogue, then the billing feature's), or the fallback. */
function es(key: string, fallback: string): string {
  const catalogues = [
    readJson(path.join(checkout, 'frontend/src/i18n/es.json')),
    { billing: readJson(path.join(checkout, 'frontend/src/features/billing/i18n/es.json')) },
  ];
  for (const catalogue of catalogues) {
    const value = key.split('.').reduce<unknown>((node, part) => (node as Catalogue | undefined)?.[part], catalogue);
    if (typeof value === 'string') return value;
  }
  return fallback;
}

async function poll<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined && ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The page's data has loaded: no spinner, no skeleton, the network quiet. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await poll('the page to stop loading', () => page.locator('.MuiCircularProgress-root, .MuiSkeleton-root').count(), (n) => n === 0, 30_000);
  // A toast from the step before ('code sent', 'saved') covers the top bar: let it go (notistack hides it in ~5 s).
  await poll('the toasts to go', () => page.locator('#notistack-snackbar').count(), (n) => n === 0, 10_000).catch(() => undefined);
  await page.waitForTimeout(500);
}

async function main() {
  if (!existsSync(path.join(frontendDir, 'index.html'))) {
    throw new Error(`${frontendDir} is missing: run \`npm run build -w frontend\` in ${checkout} first.`);
  }
  await mkdir(outDir, { recursive: true });
  const { startLocalStack } = (await import(pathToFileURL(path.join(checkout, 'functions/local/stack.ts')).href)) as typeof LocalStackModule;
  const wa = (await import(pathToFileURL(path.join(checkout, 'functions/test/support/whatsapp.ts')).href)) as typeof WhatsAppSupport;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'agentdesk-shots-'));
  const browserServer = await startBrowserServer();
  const stack = await startLocalStack({ dataDir, frontendDir, quiet: true });
  let browser: Browser | undefined;
  try {
    browser = await connectBrowser(browserServer.wsEndpoint());
    const context = await browser.newContext({ locale: 'es-ES', timezoneId: 'Europe/Madrid', viewport: DESKTOP });
    const page = await context.newPage();
    const appUrl = stack.apiUrl;
    const shot = async (name: string) => {
      const file = path.join(outDir, `${args.prefix}-${name}.png`);
      await page.screenshot({ path: file });
      console.log(file);
    };
    const api = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
      const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('agentdesk.session') ?? '{}') as { token?: string }).token ?? '');
      const res = await fetch(`${appUrl}${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as { data?: T; message?: string };
      if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${json.message}`);
      return json.data as T;
    };

    // 1. Sign up in the Spanish UI (the browser speaks Spanish) and look at the first screen.
    const email = `clinica+${randomUUID().slice(0, 8)}@example.com`;
    await page.goto(`${appUrl}/register`);
    await page.locator('input[name="name"]').fill('Lucía Peña');
    await page.locator('input[name="email"]').fill(email);
    await page.getByRole('button', { name: es('auth.register.sendCode', 'Enviar código') }).click();
    const code = await waitForMailCode(stack.mailboxUrl, email, /\b([A-Z0-9]{10})\b/, 30_000);
    await page.locator('input[name="verificationCode"]').fill(code);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('input[name="confirmPassword"]').fill(PASSWORD);
    await page.locator('input[name="acceptTerms"], input[type="checkbox"]').first().check();
    await page.locator('form button[type="submit"]').click();
    await poll('the first screen after sign-up', () => page.evaluate(() => location.pathname), (p) => p !== '/register');
    await poll('its heading', () => page.locator('h1, h2').first().isVisible(), Boolean);
    await settled(page);
    await shot('onboarding');

    // Pays Starter through the local test checkout; the owner chooses Spanish in their profile
    // (a no-op where sign-up already kept it), so the other screens compare Spanish with Spanish.
    const { url } = await api<{ url: string }>('POST', '/api/subscription/checkout', { plan: 'starter' });
    await page.goto(url);
    await page.locator('button[type="submit"]').first().click();
    await poll('the payment to complete', () => page.evaluate(() => location.pathname), (p) => p === '/subscription/success');
    await poll('the subscription', () => api<{ plan?: string; status?: string }>('GET', '/api/subscription/current'), (s) => s?.plan === 'starter');
    await api('PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });

    // 2. A WhatsApp conversation: ChatGPT (the stack's fake OpenAI), an enabled agent, WhatsApp
    // Business (the fake Graph API), and a customer's message signed as Meta signs it.
    await api('POST', '/api/integrations/chatgpt/setup', { apiKey: `sk-shots-${randomBytes(8).toString('hex')}` });
    const agent = await api<{ _id: string }>('POST', '/api/agents', { name: 'Recepción' });
    await api('PUT', `/api/agents/${agent._id}`, {
      name: 'Recepción',
      description: 'Atiende a los pacientes de la clínica por WhatsApp',
      objective: 'Dar citas y precios',
      instructions: 'Responde con amabilidad y brevedad.',
      knowledgeBase: '',
      priority: 1,
      enabled: true,
    });
    const business = {
      bearerToken: `EAAG${randomBytes(24).toString('hex')}`,
      appSecret: randomBytes(16).toString('hex'),
      phoneId: `1${wa.randomDigits(14)}`,
      businessId: `2${wa.randomDigits(14)}`,
      phoneNumber: '+34910000000',
    };
    const setup = await api<{ webhookUrl: string }>('POST', '/api/integrations/whatsapp-business/setup', business);
    const integrationId = decodeURIComponent(setup.webhookUrl.split('/').pop() ?? '');
    const customer = wa.waCustomer('Marta García', `346${wa.randomDigits(8)}`);
    const body = wa.metaDelivery(
      { phoneId: business.phoneId, businessId: business.businessId, displayPhoneNumber: business.phoneNumber },
      { messages: [wa.textMessage(customer, 'Hola, ¿tenéis cita mañana por la mañana para una limpieza?')] },
    );
    const delivered = await fetch(`${appUrl}${wa.webhookPath(integrationId)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': wa.signMetaBody(body, business.appSecret) },
      body,
    });
    if (delivered.status !== 200) throw new Error(`The webhook answered ${delivered.status}`);
    // The agent's reply went out through the fake Graph API.
    await poll(
      "the agent's reply",
      async () => ((await (await fetch(`${stack.whatsappGraphUrl}/_test/sent?${new URLSearchParams({ phoneId: business.phoneId })}`)).json()) as { sent: unknown[] }).sent,
      (sent) => sent.length > 0,
    );

    await page.setViewportSize(PHONE);
    await page.goto(`${appUrl}/conversations`);
    await settled(page);
    // The card's button: named "Abrir la conversación con Marta García…" in every version.
    const card = page.getByRole('button', { name: /Marta García/ }).first();
    await poll('the conversation in the inbox', () => card.isVisible(), Boolean);
    await card.click();
    await poll('its messages', () => page.getByText(/tenéis cita mañana/).first().isVisible(), Boolean);
    await settled(page);
    await shot('inbox-phone');

    // 3. The plan-change dialog: Starter → the first plan offered as an upgrade.
    await page.keyboard.press('Escape');
    await page.setViewportSize(DESKTOP);
    await page.goto(`${appUrl}/subscription?tab=settings`);
    await settled(page);
    await page.getByRole('button', { name: es('billing.actions.upgrade', 'Mejorar'), exact: true }).first().click();
    await poll('the dialog', () => page.getByRole('dialog').isVisible(), Boolean);
    await settled(page);
    await shot('plan-dialog');
  } finally {
    await browser?.close().catch(() => undefined);
    await browserServer.close();
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
