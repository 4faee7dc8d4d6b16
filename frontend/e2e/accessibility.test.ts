/**
 * Accessibility of every page (issue 19: badges below AA contrast; issue 29: no axe violation on
 * any page in either language). axe-core (frontend/e2e/axe.ts, `allViolations`: WCAG 2.x A/AA,
 * best practices and the label-content-name rule, any impact) finds nothing on every route of
 * the router — the visitor pages, onboarding's every step and every signed-in page with data
 * (an agent per tab, a contact, WhatsApp conversations, an escalated one open, a call with its
 * summary, the admin page, the plan-change dialog) — in English and in Spanish at 1366×768, and on the inbox at 390×844.
 * The route list is read from AppRoutes.tsx, so a new page fails here until it is covered.
 *
 * Keyboard: the first Tab on a signed-in page reaches a skip link that moves the focus to the
 * main content, and on a phone the inbox is walked in order: skip link → menu → the list → the
 * conversation → reply box → send.
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { AdminAddUserToGroupCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type {
  Agent,
  BookingService,
  BookingSettings,
  BookingStaff,
  ConversationOverview,
  VoiceConversation,
  VoiceConversationList,
  VoiceSettings,
} from '@agentdesk/functions/contract';
import { waCustomer } from '../../functions/test/support/whatsapp.js';
import { allViolations, type AxeFinding } from './axe.js';
import { LAPTOP, PHONE } from './layout.js';
import {
  ONBOARDING_HEADING,
  callApi,
  chatGptAndAgent,
  connectWhatsAppBusiness,
  customerWrites,
  dayIn,
  eventually,
  login,
  newPage,
  randomDigits,
  register,
  slowly,
  subscribedUser,
  twilioControl,
  useBrowser,
} from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();
const LANGUAGES = ['en', 'es'] as const;
type Language = (typeof LANGUAGES)[number];

/** Every path of the router: a page added there and not covered below fails the coverage check. */
const ROUTER_PATHS = [...readFileSync(new URL('../src/app/AppRoutes.tsx', import.meta.url), 'utf8').matchAll(/\bpath="([^"]+)"/g)].map((m) => m[1]!);

const VISITOR_SCREENS: Record<string, string[]> = {
  '/login': ['/login'],
  '/register': ['/register'],
  '/forgot-password': ['/forgot-password'],
  '/reset-password': ['/reset-password?email=ana%40example.com'],
  '/terms': ['/terms'],
  '/privacy': ['/privacy'],
  // Issue 32: a link whose invitation is unknown shows its message (the preview of a real one is in team.test.ts).
  '/invite/:token': [`/invite/${'A'.repeat(43)}`],
  // Issue 33: where the owner lands after asking to delete the account.
  '/account-deleted': ['/account-deleted'],
};

interface Owner {
  storageState: BrowserContextOptions['storageState'];
  name: string;
  agentId: string;
  contactId: string;
  callId: string;
  /** The day (the business's) of a booking the calendar shows (issue 30). */
  bookingDay: string;
  /** The escalated WhatsApp conversation's customer (its orange chips are on the board). */
  escalated: string;
}

const signedInScreens = (o: Owner): Record<string, string[]> => ({
  '/': ['/'],
  '/profile': ['/profile'],
  '/subscription': ['/subscription', '/subscription?tab=billing', '/subscription?tab=settings'],
  '/subscription/success': ['/subscription/success'],
  '/contacts': ['/contacts'],
  '/contacts/:id': [`/contacts/${o.contactId}`],
  '/bookings': [`/bookings?view=week&date=${o.bookingDay}`, `/bookings?view=day&date=${o.bookingDay}`, '/bookings?view=list'],
  '/bookings/setup': ['/bookings/setup', '/bookings/setup?tab=staff', '/bookings/setup?tab=closures', '/bookings/setup?tab=rules'],
  '/integrations': ['/integrations'],
  '/api-keys': ['/api-keys'],
  '/agents': ['/agents'],
  '/agents/:id': ['details', 'files', 'urls', 'tools', 'knowledge', 'test'].map((tab) => `/agents/${o.agentId}?tab=${tab}`),
  '/conversations': ['/conversations'],
  '/messages': ['/messages'],
  '/voice-conversations': ['/voice-conversations'],
  '/voice-conversations/:id': [`/voice-conversations/${o.callId}`],
  '/voice-settings': ['/voice-settings'],
  '/admin': ['/admin'],
  // Issue 32: the team (with a pending invitation) and its activity log.
  '/team': ['/team'],
  '/activity': ['/activity'],
  // Issue 33: retention, notices, opt-out words, data requests and their jobs.
  '/privacy-settings': ['/privacy-settings'],
  // The not-found page of the signed-in app.
  '*': ['/no-such-page'],
});

/** The page has drawn its heading and its first data (no spinner or skeleton left). */
async function ready(page: Page, path: string): Promise<void> {
  // A page without an h1 is axe's to report (page-has-heading-one), so this wait only gives it time.
  await page.locator('h1').first().waitFor({ timeout: 10_000 }).catch(() => undefined);
  await eventually(async () => `${await page.locator('.MuiCircularProgress-root, .MuiSkeleton-root').count()} ${path}`).toMatch(/^0 /);
  await page.waitForLoadState('networkidle');
}

/** One line per violation and page (the failure message), e.g. 'es /contacts: color-contrast (serious) .MuiChip-label — Fix …'. */
function lines(found: Record<string, AxeFinding[]>): string[] {
  return Object.entries(found).flatMap(([where, violations]) =>
    violations.flatMap((v) => v.nodes.map((n) => `${where}: ${v.id} (${v.impact}) ${n.target} ${n.html} — ${n.summary.replace(/\s+/g, ' ')}`)),
  );
}

/** Opens each path and collects what axe finds, keyed by language and path. */
async function audit(page: Page, language: Language, paths: string[], found: Record<string, AxeFinding[]>): Promise<void> {
  for (const path of paths) {
    await page.goto(`${appUrl}${path}`);
    await ready(page, path);
    await eventually(async () => `${path}: ${await page.evaluate(() => document.documentElement.lang)}`).toBe(`${path}: ${language}`);
    const violations = await allViolations(page);
    if (violations.length > 0) found[`${language} ${path}`] = violations;
  }
}

/** A session whose UI speaks `language` (the account's setting wins over the browser's). */
async function ownerPage(b: Browser, owner: Owner, language: Language, size: typeof LAPTOP | typeof PHONE = LAPTOP): Promise<Page> {
  const page = await newPage(b, { ...size, storageState: owner.storageState, locale: language === 'es' ? 'es-ES' : 'en-US' });
  await page.goto(`${appUrl}/`);
  // The saved session can be older than its 5-minute access token (this file runs longer than that
  // on a loaded machine): refreshed first, as the app does, so the calls below carry a live token.
  await page.evaluate(async () => {
    const session = JSON.parse(localStorage.getItem('agentdesk.session') ?? '{}') as { token?: string; refreshToken?: string };
    const res = await fetch('/api/refresh-token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken: session.refreshToken }) });
    const fresh = ((await res.json()) as { data?: { token: string; expiresIn: number; refreshToken?: string } }).data;
    if (!res.ok || !fresh) throw new Error(`refresh-token: ${res.status}`);
    const renewed = { ...session, token: fresh.token, expiresAt: Date.now() + fresh.expiresIn * 1000, ...(fresh.refreshToken ? { refreshToken: fresh.refreshToken } : {}) };
    localStorage.setItem('agentdesk.session', JSON.stringify(renewed));
  });
  await page.reload();
  await callApi(page, 'PUT', '/api/user/profile', { name: owner.name, language });
  return page;
}

/** A subscribed administrator with an agent (and a disabled one), a contact, WhatsApp conversations, a call and a phone request. */
async function setUpOwner(b: Browser): Promise<Owner> {
  const context = await b.newContext({ viewport: LAPTOP.viewport });
  const page = await context.newPage();
  const email = await subscribedUser(page, 'a11y');
  const name = 'Clínica Peña';
  await callApi(page, 'PUT', '/api/user/profile', { name, language: 'es' });
  await chatGptAndAgent(page, { name: 'Recepción', description: 'Atiende a los pacientes', objective: 'Dar citas y precios' });
  await callApi(page, 'POST', '/api/agents', { name: 'Borrador' });
  const agent = (await callApi<Agent[]>(page, 'GET', '/api/agents')).find((a) => a.name === 'Recepción')!;
  const contact = await callApi<{ _id: string }>(page, 'POST', '/api/contacts', { name: 'Lucía Muñoz', phoneNumber: '+34600111333' });
  // Bookings (issue 30): two dentists open every day, a service, and a booking tomorrow at 10:00.
  const open = [{ start: '09:00', end: '14:00' }, { start: '16:00', end: '20:00' }];
  const weeklyHours = { mon: open, tue: open, wed: open, thu: open, fri: open, sat: open, sun: open };
  const dentists = await Promise.all(['Dra. García', 'Dr. Ruiz'].map((staffName) => callApi<BookingStaff>(page, 'POST', '/api/bookings/staff', { name: staffName, weeklyHours })));
  const cleaning = await callApi<BookingService>(page, 'POST', '/api/bookings/services', { name: 'Limpieza dental', durationMinutes: 30, staffIds: dentists.map((d) => d._id) });
  const { timeZone } = await callApi<BookingSettings>(page, 'GET', '/api/bookings/settings');
  const bookingDay = new Date(Date.parse(`${dayIn(timeZone)}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  await callApi(page, 'POST', '/api/bookings', { serviceId: cleaning._id, staffId: dentists[0]!._id, start: `${bookingDay}T10:00`, customer: { name: 'Lucía Muñoz', phone: '+34600111333' } });
  await callApi(page, 'POST', '/api/voice-settings/request-phone', { notes: 'Madrid, por favor' });
  // A call played by the fake Twilio; the call-summary worker summarises it with the fake OpenAI.
  const settings = await callApi<VoiceSettings>(page, 'GET', '/api/voice-settings');
  await callApi(page, 'PUT', '/api/voice-settings', { ...settings, conversationMode: 'gather' });
  const businessNumber = `+3491${randomDigits(7)}`;
  const account = await twilioControl<{ accountSid: string; authToken: string }>('accounts', { numbers: [businessNumber] });
  await callApi(page, 'POST', '/api/integrations/twilio-voice/setup', { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: businessNumber });
  await twilioControl('calls', {
    to: businessNumber,
    from: `+346${randomDigits(8)}`,
    turns: [{ speech: 'Quiero una cita para una limpieza el viernes por la mañana', confidence: 0.91 }],
    hangup: 'after-script',
  });
  const calls = () => callApi<VoiceConversationList>(page, 'GET', '/api/voice-conversations');
  await slowly(async () => (await calls()).conversations.length).toBe(1);
  const call = (await calls()).conversations[0]!;
  await slowly(async () => (await callApi<{ conversation: VoiceConversation }>(page, 'GET', `/api/voice-conversations/${call._id}`)).conversation.summary !== null).toBe(true);

  // Two WhatsApp customers; one conversation is escalated to a person.
  const business = await connectWhatsAppBusiness(page);
  const escalated = `Marta ${randomUUID().slice(0, 4)}`;
  await customerWrites(business, waCustomer(`Jorge ${randomUUID().slice(0, 4)}`, `346${randomDigits(8)}`), 'Hola, ¿abrís el sábado?');
  await customerWrites(business, waCustomer(escalated, `346${randomDigits(8)}`), 'Quiero hablar con una persona, por favor');
  const board = () => callApi<ConversationOverview>(page, 'GET', '/api/conversations/overview');
  await slowly(async () => (await board()).conversationsByStatus.active.length).toBe(2);
  const toEscalate = (await board()).conversationsByStatus.active.find((c) => JSON.stringify(c).includes(escalated))!;
  await callApi(page, 'POST', `/api/conversations/${toEscalate._id}/escalate`, { reason: 'Pide hablar con una persona' });
  // A receptionist invited (issue 32): the team page lists the invitation, the activity log says so.
  await callApi(page, 'POST', '/api/team/invitations', { email: `recepcion+${randomUUID().slice(0, 8)}@example.com`, role: 'agent' });

  // An administrator (Cognito group 'admin'), signed in again for the groups claim.
  const cognito = new CognitoIdentityProviderClient({
    endpoint: inject('cognitoEndpoint'),
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: inject('userPoolId'), Username: email, GroupName: 'admin' }));
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${appUrl}/login`);
  await login(page, email);
  await eventually(() => page.getByTestId('nav-admin').count()).toBe(1);
  const storageState = await context.storageState();
  await context.close();
  return { storageState, name, agentId: agent._id, contactId: contact._id, callId: call._id, bookingDay, escalated };
}

describe('accessibility (axe: no violation on any page, English and Spanish)', () => {
  it('covers every route of the router', () => {
    const placeholder: Owner = { storageState: undefined, name: '', agentId: 'a', contactId: 'c', callId: 'v', bookingDay: '2026-12-01', escalated: '' };
    const covered = new Set([...Object.keys(VISITOR_SCREENS), ...Object.keys(signedInScreens(placeholder))]);
    expect(ROUTER_PATHS.length).toBeGreaterThan(20);
    expect(ROUTER_PATHS.filter((p) => !covered.has(p))).toEqual([]);
  });

  it('finds nothing on the visitor pages', async () => {
    const found: Record<string, AxeFinding[]> = {};
    for (const language of LANGUAGES) {
      const page = await newPage(browser(), { ...LAPTOP, locale: language === 'es' ? 'es-ES' : 'en-US' });
      await audit(page, language, Object.values(VISITOR_SCREENS).flat(), found);
      await page.context().close();
    }
    expect(lines(found)).toEqual([]);
  });

  it('finds nothing on any step of onboarding', async () => {
    const found: Record<string, AxeFinding[]> = {};
    // The sign-up steps of flows.ts speak English.
    const page = await newPage(browser(), { viewport: LAPTOP.viewport });
    await register(page, appUrl, inject('mailboxUrl'), `a11y-onboarding+${randomUUID().slice(0, 8)}@example.com`);
    await eventually(() => page.getByRole('heading', { name: ONBOARDING_HEADING }).count()).toBe(1);
    for (const language of LANGUAGES) {
      await callApi(page, 'PUT', '/api/user/profile', { name: 'Dana Dentist', language });
      await page.goto(`${appUrl}/`);
      const steps = page.locator('[data-testid^="onboarding-step-"]');
      for (let step = 1; ; step++) {
        await ready(page, `onboarding ${step}`);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
        const id = await steps.getAttribute('data-testid');
        const violations = await allViolations(page);
        if (violations.length > 0) found[`${language} ${id}`] = violations;
        const next = page.getByRole('button', { name: language === 'es' ? 'Siguiente' : 'Next', exact: true });
        if ((await next.count()) === 0 || (await next.isDisabled())) break;
        await next.click();
        await eventually(() => steps.getAttribute('data-testid')).not.toBe(id);
      }
    }
    expect(lines(found)).toEqual([]);
    await page.context().close();
  }, 240_000);

  describe('signed in', () => {
    // Set up once, by the first test that needs it (expect.poll works only inside a test).
    let setUp: Promise<Owner> | undefined;
    const theOwner = () => (setUp ??= setUpOwner(browser()));

    for (const language of LANGUAGES) {
      it(`finds nothing on any page in ${language} at 1366×768`, async () => {
        const found: Record<string, AxeFinding[]> = {};
        const owner = await theOwner();
        const page = await ownerPage(browser(), owner, language);
        await audit(page, language, Object.values(signedInScreens(owner)).flat(), found);
        // The inbox with the escalated conversation open.
        await page.goto(`${appUrl}/conversations`);
        await ready(page, '/conversations');
        await page.getByTestId('conversation-card').filter({ hasText: owner.escalated }).getByRole('button').first().click();
        await eventually(() => page.getByText('Quiero hablar con una persona, por favor').first().isVisible()).toBe(true);
        await ready(page, 'the open conversation');
        const open = await allViolations(page);
        if (open.length > 0) found[`${language} /conversations (open)`] = open;
        // The plan-change dialog (the trial's Professional → another plan).
        await page.goto(`${appUrl}/subscription?tab=settings`);
        await ready(page, '/subscription?tab=settings');
        await page.getByRole('button', { name: language === 'es' ? /^(Mejorar|Bajar de plan)$/ : /^(Upgrade|Downgrade)$/ }).first().click();
        await eventually(() => page.getByRole('dialog').count()).toBe(1);
        await ready(page, 'the plan-change dialog');
        const planDialog = await allViolations(page);
        if (planDialog.length > 0) found[`${language} /subscription (plan-change dialog)`] = planDialog;
        expect(lines(found)).toEqual([]);
        await page.context().close();
      }, 480_000);

      it(`finds nothing on the inbox in ${language} at 390×844`, async () => {
        const found: Record<string, AxeFinding[]> = {};
        const owner = await theOwner();
        const page = await ownerPage(browser(), owner, language, PHONE);
        await audit(page, language, ['/conversations'], found);
        await page.getByTestId('conversation-card').filter({ hasText: owner.escalated }).getByRole('button').first().click();
        await eventually(() => page.getByText('Quiero hablar con una persona, por favor').first().isVisible()).toBe(true);
        await ready(page, 'the open conversation');
        const open = await allViolations(page);
        if (open.length > 0) found[`${language} /conversations (open, phone)`] = open;
        expect(lines(found)).toEqual([]);
        await page.context().close();
      }, 300_000);
    }

    it('on a phone, Tab goes skip link → menu → the list → the conversation → reply box → Send; the skip link moves the focus to the main content', async () => {
      const owner = await theOwner();
      const page = await ownerPage(browser(), owner, 'es', PHONE);
      const escalatedCard = page.getByTestId('conversation-card').filter({ hasText: owner.escalated });
      const openInbox = async () => {
        await page.goto(`${appUrl}/conversations`);
        await ready(page, '/conversations');
        await eventually(() => escalatedCard.count()).toBe(1);
        await page.getByTestId('skip-link').waitFor({ state: 'attached' });
      };
      await openInbox();
      /** What has the focus: its role or tag, and its accessible name or test id. */
      const focused = () =>
        page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el || el === document.body) return 'body';
          const name = el.getAttribute('aria-label') ?? el.dataset.testid ?? el.textContent?.trim().slice(0, 60) ?? '';
          return `${el.getAttribute('role') ?? el.tagName.toLowerCase()}: ${name}`;
        });

      // The first Tab: the skip link, shown while it has the focus; Enter puts the focus on <main>.
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('a: skip-link');
      expect(await page.getByTestId('skip-link').textContent()).toBe('Saltar al contenido principal');
      const skip = await page.getByTestId('skip-link').boundingBox();
      expect(skip && skip.y >= 0 && skip.height > 0).toBe(true);
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);

      // From the top again: the menu button, then the cards of the list up to the escalated one.
      await openInbox();
      const order: string[] = [];
      for (let i = 0; i < 40 && !order.at(-1)?.includes(owner.escalated); i++) {
        await page.keyboard.press('Tab');
        order.push(await focused());
      }
      expect(order.slice(0, 2), order.join('\n')).toEqual(['a: skip-link', 'button: Abrir el menú de navegación']);
      const firstCard = order.findIndex((f) => f.includes('Abrir la conversación con'));
      expect(firstCard, order.join('\n')).toBeGreaterThan(1);
      expect(order.at(-1), order.join('\n')).toContain(owner.escalated);

      // Enter opens it; Tab goes through the conversation (its messages) to the reply box, then Send.
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await eventually(() => dialog.getByRole('log').count()).toBe(1);
      const inDialog: string[] = [];
      for (let i = 0; i < 25 && !inDialog.at(-1)?.startsWith('button: Enviar'); i++) {
        await page.keyboard.press('Tab');
        const now = await focused();
        inDialog.push(now);
        // Send is enabled once there is something to send.
        if (await page.evaluate(() => document.activeElement?.tagName === 'TEXTAREA')) await page.keyboard.type('Ahora te atiendo');
      }
      const at = (prefix: string) => inDialog.findIndex((f) => f.startsWith(prefix));
      const [messages, reply, send] = [at('log: '), at('textarea: '), at('button: Enviar')];
      expect(messages, inDialog.join('\n')).toBeGreaterThanOrEqual(0);
      expect(reply, inDialog.join('\n')).toBeGreaterThan(messages);
      expect(send, inDialog.join('\n')).toBe(reply + 1);
      await page.context().close();
    }, 300_000);
  });
});
