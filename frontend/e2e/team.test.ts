/**
 * A team in one account (issue 32) in a real browser, in Spanish: the owner of a clinic invites
 * her receptionist Lucía Martín as an agent; Lucía opens the link from the e-mail in her own
 * browser, creates her login with the invited e-mail (prefilled and locked), accepts and lands in
 * the inbox; she answers a WhatsApp conversation assigned to her; Integrations and Billing are not
 * in her sidebar and their URLs refuse her (the API too, 403); the owner sees her name on the reply
 * and in the activity log, and removes her; Lucía's session ends (her next refresh fails: the
 * local session clock, POST /_local/clock, lets her 5-minute access token expire without waiting).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { teamMessages, type Conversation, type ConversationDetail } from '@agentdesk/functions/contract';
import { waCustomer } from '../../functions/test/support/whatsapp.js';
import { waitForMailCode } from './browser.js';
import {
  activeCard,
  advanceServerClock,
  callApi,
  chatGptAndAgent,
  connectWhatsAppBusiness,
  customerWrites,
  eventually,
  graphSends,
  newPage,
  PASSWORD,
  pathOf,
  randomDigits,
  slowly,
  subscribedUser,
  useBrowser,
  userIdOf,
} from './flows.js';

const appUrl = inject('appUrl');
const mailboxUrl = inject('mailboxUrl');
const browser = useBrowser();

const storedSession = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('agentdesk.session') ?? '{}') as { token?: string; refreshToken?: string });

/** The sidebar link of a page (Sidebar's data-testid). */
const navLink = (page: Page, id: string) => page.getByTestId(`nav-${id}`);

describe('a team in one account', () => {
  it('the owner invites Lucía as an agent; she joins, answers a conversation, cannot open Integrations or Billing; the owner sees her reply and removes her', async () => {
    // ---- The owner, in Spanish, with an agent answering WhatsApp.
    // She signs up in English (subscribedUser's words) and switches the account to Spanish.
    const owner = await newPage(browser(), { timezoneId: 'Europe/Madrid' });
    await subscribedUser(owner, 'team-owner');
    await callApi(owner, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });
    await chatGptAndAgent(owner, {
      name: 'Recepción',
      description: 'Responde por WhatsApp sobre horarios, precios y citas de la clínica',
      objective: 'Ayudar rápido y pasar los casos difíciles a una persona',
    });
    const business = await connectWhatsAppBusiness(owner);

    // ---- Settings → Equipo: invite Lucía as an agent.
    const luciaEmail = `lucia.martin+${randomUUID().slice(0, 8)}@example.com`;
    await owner.goto(`${appUrl}/team`);
    await eventually(() => owner.getByRole('heading', { name: 'Equipo', level: 1 }).count()).toBe(1);
    const ownerRow = owner.locator('[data-testid^="member-"]').filter({ hasText: 'Clínica Peña' });
    await eventually(() => ownerRow.count()).toBe(1);
    expect(await ownerRow.textContent()).toMatch(/Clínica Peña\s*\(tú\).*Propietario/);
    await eventually(() => owner.getByTestId('team-seats').textContent()).toBe('1 de 5 puestos usados');
    await owner.getByRole('button', { name: 'Invitar a una persona' }).click();
    const inviteDialog = owner.getByRole('dialog', { name: 'Invitar a una persona' });
    await inviteDialog.getByRole('textbox', { name: 'Correo electrónico' }).fill(luciaEmail);
    expect(await inviteDialog.getByRole('combobox', { name: 'Rol' }).textContent()).toBe('Agente');
    await inviteDialog.getByRole('button', { name: 'Enviar invitación' }).click();
    await eventually(() => owner.getByText('Invitación enviada').count()).toBeGreaterThan(0);
    const invitationRow = owner.locator('[data-testid^="invitation-"]').filter({ hasText: luciaEmail });
    await eventually(() => invitationRow.count()).toBe(1);
    expect(await invitationRow.textContent()).toMatch(/Caduca el .*Invitada por Clínica Peña/);

    // ---- Lucía, in her own browser: the link from the e-mail, a new login, accept.
    const lucia = await newPage(browser(), { locale: 'es-ES', timezoneId: 'Europe/Madrid' });
    // Her page's clock flows normally until the end, when it jumps with the server's.
    await lucia.clock.install();
    const invitePath = await waitForMailCode(mailboxUrl, luciaEmail, /(\/invite\/[A-Za-z0-9_-]{43})/, 60_000);
    await lucia.goto(`${appUrl}${invitePath}`);
    await eventually(() => lucia.getByTestId('invitation-summary').textContent()).toBe(`Clínica Peña ha invitado a ${luciaEmail} a trabajar en Clínica Peña como agente.`);
    await lucia.getByRole('link', { name: 'Crear cuenta' }).click();
    await eventually(() => pathOf(lucia)).toMatch(/^\/register\?/);
    const email = lucia.getByLabel('Correo electrónico', { exact: true });
    expect(await email.inputValue()).toBe(luciaEmail);
    expect(await email.getAttribute('readonly')).not.toBeNull();
    await lucia.getByLabel('Nombre', { exact: true }).fill('Lucía Martín');
    await lucia.getByRole('button', { name: 'Enviar código' }).click();
    await eventually(() => lucia.getByText(/60 minutos/).count()).toBeGreaterThan(0);
    const code = await waitForMailCode(mailboxUrl, luciaEmail, /\b([A-Z0-9]{10})\b/);
    await lucia.getByLabel('Código de verificación').fill(code);
    await lucia.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
    await lucia.getByLabel('Confirmar contraseña').fill(PASSWORD);
    await lucia.getByRole('checkbox', { name: /Acepto los/ }).check();
    await lucia.getByRole('button', { name: 'Crear cuenta' }).click();
    // Back on the invitation, signed in with the invited e-mail.
    await eventually(() => pathOf(lucia)).toBe(invitePath);
    await lucia.getByRole('button', { name: 'Aceptar invitación' }).click();
    await slowly(() => pathOf(lucia)).toBe('/conversations');
    await eventually(() => lucia.getByText('Te has unido a Clínica Peña').count()).toBeGreaterThan(0);
    const me = await callApi<{ accountRole: string; accountName: string; hasActiveSubscription: boolean }>(lucia, 'GET', '/api/me');
    expect(me).toMatchObject({ accountRole: 'agent', accountName: 'Clínica Peña', hasActiveSubscription: true });
    const luciaId = await userIdOf(lucia);

    // ---- An agent's sidebar: the inbox, no Integrations, API keys, agents or billing.
    await eventually(() => navLink(lucia, 'conversations').count()).toBe(1);
    for (const hidden of ['integrations', 'subscription', 'api-keys', 'agents', 'voice-settings', 'activity']) {
      expect(await navLink(lucia, hidden).count(), hidden).toBe(0);
    }
    expect(await navLink(lucia, 'team').count()).toBe(1);
    // Typed URLs go back to the dashboard with the reason; the API refuses too.
    for (const path of ['/integrations', '/subscription']) {
      await lucia.goto(`${appUrl}${path}`);
      await eventually(() => pathOf(lucia)).toBe('/');
      await eventually(() => lucia.getByText('Esa página no está disponible para tu rol.').count()).toBeGreaterThan(0);
    }
    const { token: luciaToken } = await storedSession(lucia);
    const refused = await fetch(`${appUrl}/api/integrations`, { headers: { authorization: `Bearer ${luciaToken}` } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message?: string }).message).toBe(teamMessages.forbidden);

    // ---- A customer writes; the owner assigns the conversation to Lucía, who answers it.
    const customer = waCustomer(`Begoña ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);
    await customerWrites(business, customer, '¿Tienen cita mañana por la tarde?');
    await slowly(async () => (await graphSends(business.phoneId)).map((s) => s.text)).toEqual(['Echo: ¿Tienen cita mañana por la tarde?']);
    let conversationId = '';
    await slowly(async () => {
      const list = await callApi<Conversation[]>(owner, 'GET', '/api/conversations');
      conversationId = list.find((c) => c.profileName === customer.name || c.contact.name === customer.name)?._id ?? '';
      return conversationId;
    }).not.toBe('');
    await callApi(owner, 'PUT', `/api/conversations/${conversationId}`, { assignee: luciaId });

    const card = await activeCard(lucia, appUrl, customer.name);
    await lucia.getByRole('button', { name: 'Mías' }).click();
    await eventually(() => card.count()).toBe(1);
    await card.getByRole('button').first().click();
    const luciaDialog = lucia.getByRole('dialog');
    const reply = `Sí, a las 17:30. Un saludo, Lucía (${randomBytes(2).toString('hex')})`;
    await luciaDialog.getByRole('textbox', { name: /Respuesta/ }).fill(reply);
    await luciaDialog.getByRole('button', { name: 'Enviar', exact: true }).click();
    await slowly(async () => (await graphSends(business.phoneId)).map((s) => s.text)).toContain(reply);

    // ---- The owner sees who replied, in the conversation and in the activity log.
    const ownerCard = await activeCard(owner, appUrl, customer.name);
    await ownerCard.getByRole('button').first().click();
    const ownerDialog = owner.getByRole('dialog');
    const log = ownerDialog.getByRole('log', { name: 'Mensajes' });
    await slowly(() => log.getByText(reply, { exact: true }).count()).toBe(1);
    await eventually(() => log.getByText(/Enviado por Lucía Martín/).count()).toBeGreaterThan(0);
    await ownerDialog.getByRole('button', { name: 'Cerrar', exact: true }).click();

    await owner.goto(`${appUrl}/activity`);
    await eventually(() => owner.getByRole('heading', { name: 'Registro de actividad', level: 1 }).count()).toBe(1);
    const replied = owner.getByTestId('activity-entry').filter({ hasText: /Lucía Martín respondió en (una|la) conversación/ });
    await slowly(async () => {
      await owner.reload();
      await owner.getByTestId('activity-entry').first().waitFor();
      return replied.count();
    }).toBeGreaterThan(0);
    // The filter by member keeps only Lucía's entries (her sign-in, joining, the reply).
    await owner.getByRole('combobox', { name: 'Miembro' }).click();
    await owner.getByRole('option', { name: 'Lucía Martín' }).click();
    await eventually(async () => {
      const rows = await owner.getByTestId('activity-entry').allTextContents();
      return rows.length > 0 && rows.every((row) => row.startsWith('Lucía Martín'));
    }).toBe(true);

    // ---- The owner removes her: the confirmation names her, the sign-out and the unassigned conversations.
    await owner.goto(`${appUrl}/team`);
    await owner.getByRole('button', { name: 'Quitar a Lucía Martín' }).click();
    const confirm = owner.getByRole('dialog', { name: '¿Quitar a Lucía Martín?' });
    expect(await confirm.textContent()).toMatch(/Lucía Martín cerrará sesión al momento.*Sus conversaciones quedarán sin asignar/);
    await confirm.getByRole('button', { name: 'Quitar', exact: true }).click();
    await eventually(() => owner.getByText('Miembro quitado').count()).toBeGreaterThan(0);
    await eventually(() => owner.getByRole('button', { name: 'Quitar a Lucía Martín' }).count()).toBe(0);
    await eventually(() => owner.getByTestId('team-seats').textContent()).toBe('1 de 5 puestos usados');
    expect((await callApi<ConversationDetail>(owner, 'GET', `/api/conversations/${conversationId}`)).conversation.assignee).toBeNull();

    // ---- Lucía is signed out: her refresh token is refused now, and once her access token
    // expires (5 minutes, both clocks moved forward) the app's refresh fails and sends her to sign in.
    const { refreshToken } = await storedSession(lucia);
    const refresh = await fetch(`${appUrl}/api/refresh-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken }) });
    expect(refresh.status).toBeGreaterThanOrEqual(400);
    expect(refresh.status).toBeLessThan(500);
    await lucia.goto(`${appUrl}/conversations`);
    await advanceServerClock(6 * 60);
    await lucia.clock.fastForward('06:00');
    await slowly(() => pathOf(lucia)).toBe('/login');
    const stale = await fetch(`${appUrl}/api/conversations`, { headers: { authorization: `Bearer ${luciaToken}` } });
    expect(stale.status).toBe(401);
  });

  it('a cancelled invitation, a broken link and another signed-in e-mail each say what to do', async () => {
    const owner = await newPage(browser(), { timezoneId: 'Europe/Madrid' });
    const ownerEmail = await subscribedUser(owner, 'team-cancel');
    await callApi(owner, 'PUT', '/api/user/profile', { name: 'Óptica Núñez', language: 'es' });
    const invitee = `begona.ruiz+${randomUUID().slice(0, 8)}@example.com`;
    await owner.goto(`${appUrl}/team`);
    await owner.getByRole('button', { name: 'Invitar a una persona' }).click();
    const inviteDialog = owner.getByRole('dialog', { name: 'Invitar a una persona' });
    await inviteDialog.getByRole('textbox', { name: 'Correo electrónico' }).fill(invitee);
    await inviteDialog.getByRole('button', { name: 'Enviar invitación' }).click();
    const invitePath = await waitForMailCode(mailboxUrl, invitee, /(\/invite\/[A-Za-z0-9_-]{43})/, 60_000);

    // Signed in as someone else (the owner herself): the page names both addresses.
    await owner.goto(`${appUrl}${invitePath}`);
    await eventually(() => owner.getByText(`Esta invitación es para ${invitee} y has iniciado sesión como ${ownerEmail}.`, { exact: false }).count()).toBe(1);
    expect(await owner.getByRole('button', { name: 'Aceptar invitación' }).count()).toBe(0);

    // The owner cancels it, after a confirmation naming the address.
    await owner.goto(`${appUrl}/team`);
    await owner.getByRole('button', { name: `Cancelar invitación a ${invitee}` }).click();
    const confirm = owner.getByRole('dialog', { name: '¿Cancelar esta invitación?' });
    expect(await confirm.textContent()).toContain(invitee);
    await confirm.getByRole('button', { name: 'Cancelar invitación' }).click();
    await eventually(() => owner.getByText('Invitación cancelada').count()).toBeGreaterThan(0);
    await eventually(() => owner.getByText('No hay invitaciones pendientes.').count()).toBe(1);

    // The invitee's link now says so; a mangled link says it is not valid.
    const visitor = await newPage(browser(), { locale: 'es-ES' });
    await visitor.goto(`${appUrl}${invitePath}`);
    await eventually(() => visitor.getByText('Esta invitación se canceló.').count()).toBe(1);
    expect(await visitor.getByRole('link', { name: 'Crear cuenta' }).count()).toBe(0);
    await visitor.goto(`${appUrl}/invite/not-a-real-token`);
    await eventually(() => visitor.getByText(/Este enlace de invitación no es válido/).count()).toBe(1);
  });
});

