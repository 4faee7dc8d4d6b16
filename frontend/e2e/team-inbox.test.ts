/**
 * The inbox for a team (issue 32) in a real browser, in Spanish: the owner ("Marta Dueña") has a
 * receptionist ("Lucía Martín", who joined through an e-mailed invitation, by API); in the
 * conversation the owner picks her in "Asignar a" ("Yo" first), the header says so, "Mías" no
 * longer lists it for the owner, and Lucía's reply shows "Enviado por Lucía Martín" in the thread.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { AuthSession, Conversation, RefreshedSession } from '@agentdesk/functions/contract';
import { waCustomer } from '../../functions/test/support/whatsapp.js';
import { waitForMailCode } from './browser.js';
import { PASSWORD, callApi, chatGptAndAgent, connectWhatsAppBusiness, customerWrites, eventually, graphSends, randomDigits, slowly, useBrowser } from './flows.js';
import { LAPTOP, openSpanishConversation, screenshot, spanishOwner } from './layout.js';

const appUrl = inject('appUrl');
const mailboxUrl = inject('mailboxUrl');
const browser = useBrowser();

/** A public or signed-in API call outside the browser (Lucía has no page here). */
async function api<T>(method: string, path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${appUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: T; message?: string };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json.message}`);
  return json.data as T;
}

describe('the inbox for a team', () => {
  it('in Spanish: the owner assigns a conversation to Lucía from "Asignar a", and sees "Enviado por Lucía Martín" on her reply', async () => {
    const owner = await spanishOwner(browser(), 'team-inbox', LAPTOP);
    await owner.goto(`${appUrl}/conversations`);
    await callApi(owner, 'PUT', '/api/user/profile', { name: 'Marta Dueña', language: 'es' });
    await chatGptAndAgent(owner, {
      name: 'Recepción',
      description: 'Responde por WhatsApp sobre horarios, precios y citas de la clínica',
      objective: 'Ayudar rápido y pasar los casos difíciles a una persona',
    });
    const business = await connectWhatsAppBusiness(owner);

    // Lucía signs up, is invited as an agent and accepts; her refreshed token is the account's.
    const email = `lucia.martin+${randomUUID().slice(0, 8)}@example.com`;
    await api('POST', '/api/send-verification', { email });
    const verificationCode = await waitForMailCode(mailboxUrl, email, /\b([A-Z0-9]{10})\b/);
    const session = await api<AuthSession>('POST', '/api/register', { name: 'Lucía Martín', email, password: PASSWORD, verificationCode, language: 'es' });
    await callApi(owner, 'POST', '/api/team/invitations', { email, role: 'agent' });
    const token = await waitForMailCode(mailboxUrl, email, /\/invite\/([A-Za-z0-9_-]{43})/, 30_000);
    await api('POST', '/api/invitations/accept', { token }, session.token);
    const lucia = await api<RefreshedSession>('POST', '/api/refresh-token', { refreshToken: session.refreshToken });

    const customer = waCustomer(`Carmen ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);
    await customerWrites(business, customer, '¿Tenéis cita el jueves?');
    await slowly(async () => (await graphSends(business.phoneId)).length).toBe(1);

    // The owner's assign control: "Yo (Marta Dueña)" first, then Lucía, then nobody.
    const { dialog } = await openSpanishConversation(owner, appUrl, customer.name);
    await eventually(() => dialog.getByTestId('conversation-assignee').textContent()).toBe('Sin asignar');
    await screenshot(owner, 'team-inbox-before-assign');
    const assignTo = dialog.getByTestId('conversation-assign-to').getByRole('combobox');
    await eventually(() => assignTo.count()).toBe(1);
    await assignTo.click();
    const options = owner.getByRole('listbox').getByRole('option');
    await eventually(() => options.allTextContents()).toEqual(['Yo (Marta Dueña)', 'Lucía Martín', 'Sin asignar']);
    await options.filter({ hasText: 'Lucía Martín' }).click();
    await eventually(() => dialog.getByTestId('conversation-assignee').textContent()).toBe('Asignada a Lucía Martín');
    const conversations = await callApi<Conversation[]>(owner, 'GET', '/api/conversations');
    const conversation = conversations.find((c) => c.assignee === session.user._id);
    expect(conversation?.contact.name).toBe(customer.name);

    // Lucía answers (from her own session); the owner's thread names her.
    await api('POST', `/api/conversations/${conversation!._id}/messages`, { text: 'Sí, el jueves a las 10:30. ¡Te esperamos!' }, lucia.token);
    await dialog.getByRole('button', { name: 'Cerrar', exact: true }).click();
    const reopened = await openSpanishConversation(owner, appUrl, customer.name);
    const hers = reopened.log.getByTestId('conversation-message').filter({ hasText: 'Sí, el jueves a las 10:30' });
    await slowly(() => hers.textContent()).toMatch(/Enviado por Lucía Martín/);
    await eventually(() => reopened.dialog.getByTestId('conversation-assignee').textContent()).toBe('Asignada a Lucía Martín');
    await screenshot(owner, 'team-inbox-assigned-to-lucia');

    // Mías is the owner's own: not Lucía's conversation.
    await reopened.dialog.getByRole('button', { name: 'Cerrar', exact: true }).click();
    await owner.getByRole('button', { name: 'Mías' }).click();
    await eventually(() => owner.getByTestId('conversation-card').filter({ hasText: customer.name }).count()).toBe(0);
    await owner.getByRole('button', { name: 'Todas' }).click();
    await eventually(() => owner.getByTestId('conversation-card').filter({ hasText: customer.name }).count()).toBe(1);
  });
});
