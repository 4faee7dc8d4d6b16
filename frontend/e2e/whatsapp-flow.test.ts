/**
 * The WhatsApp flow in a real browser against the local runtime (fake OpenAI and fake Graph API
 * are the stack's defaults): a user with ChatGPT and an enabled agent (set up through the API)
 * connects WhatsApp Business in the Integrations modal and gets a signed webhook delivery from a
 * simulated customer; /conversations shows it under Active with the agent's reply; escalating
 * moves it to Requires Human with ACTION NEEDED; a human reply sent from the composer reaches the
 * Graph API; closing it moves it to Closed.
 *
 * The sidebar's WhatsApp group is every subscribed account's (issue 29 item 7: WHATSAPP_USER_IDS is
 * only an optional operator rollout list, empty here), so a freshly registered user sees it.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import {
  metaDelivery,
  randomDigits,
  signMetaBody,
  textMessage,
  waCustomer,
  webhookPath,
  type GraphSend,
} from '../../functions/test/support/whatsapp.js';
import { chatGptAndAgent, eventually, newPage, pressConnect, subscribedUser, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const graphUrl = inject('whatsappGraphUrl');

/** The inbound worker runs the agent through the queue and the model: give it time on a busy machine. */
const slowly = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 60_000, interval: 250 });

/** What the fake Graph API was asked to send from a phone number id. */
async function graphSends(phoneId: string): Promise<GraphSend[]> {
  const res = await fetch(`${graphUrl}/_test/sent?${new URLSearchParams({ phoneId })}`);
  return ((await res.json()) as { sent: GraphSend[] }).sent;
}

const browser = useBrowser();

describe('whatsapp', () => {
  it('shows a customer conversation on the board, escalates it, answers as a human and closes it', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'whatsapp');

    // ChatGPT, one enabled agent, and WhatsApp.
    await chatGptAndAgent(page, {
      name: 'Front Desk',
      description: 'Answers WhatsApp questions about opening hours, prices and appointments at the clinic',
      objective: 'Help customers quickly and hand hard cases to a person',
    });
    const business = {
      bearerToken: `EAAG${randomBytes(24).toString('hex')}`,
      appSecret: randomBytes(16).toString('hex'),
      phoneId: `1${Date.now()}`,
      businessId: `2${Date.now()}`,
      phoneNumber: '+14155550123',
    };
    await page.goto(`${appUrl}/integrations`);
    await pressConnect(page, 'integration-whatsapp-business');
    const setupDialog = page.getByRole('dialog');
    await setupDialog.getByLabel(/^Bearer Token/).fill(business.bearerToken);
    await setupDialog.getByLabel(/^Business ID/).fill(business.businessId);
    await setupDialog.getByLabel(/^Phone ID/).fill(business.phoneId);
    await setupDialog.getByLabel(/^Phone Number/).fill(business.phoneNumber);
    await setupDialog.getByLabel(/^App Secret/).fill(business.appSecret);
    await setupDialog.getByRole('button', { name: 'Save' }).click();
    await eventually(() => page.getByText('WhatsApp Business integration configured successfully').count()).toBeGreaterThan(0);
    const webhookUrl = await setupDialog.getByTestId('whatsapp-webhook-url').inputValue();
    expect(webhookUrl).toMatch(/\/api\/webhooks\/whatsapp-business\/[^/]+$/);
    const integrationId = decodeURIComponent(webhookUrl.split('/').pop() ?? '');
    await setupDialog.getByRole('button', { name: 'Close', exact: true }).click();

    // A customer writes: a delivery signed as Meta signs it, posted to the webhook URL.
    // A real-looking Spanish mobile number (wa_id = digits with the country code), so it becomes a contact.
    const customer = waCustomer(`Lucía ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);
    const question = 'Hola, do you have an appointment tomorrow morning?';
    const body = metaDelivery(
      { phoneId: business.phoneId, businessId: business.businessId, displayPhoneNumber: business.phoneNumber },
      { messages: [textMessage(customer, question)] },
    );
    const delivery = await fetch(`${appUrl}${webhookPath(integrationId)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaBody(body, business.appSecret) },
      body,
    });
    expect(delivery.status).toBe(200);

    // The agent answers through the Graph API.
    await slowly(async () => (await graphSends(business.phoneId)).filter((s) => s.status === 200).length).toBe(1);
    const [agentReply] = await graphSends(business.phoneId);
    expect(agentReply?.to).toBe(customer.waId);
    const replyText = agentReply?.text ?? '';
    expect(replyText).not.toBe('');

    // The board: under Active, with the agent's reply as the last message. The sidebar offers WhatsApp to this new account.
    expect(await page.getByTestId('nav-group-whatsapp').count()).toBe(1);
    await page.goto(`${appUrl}/conversations`);
    const column = (status: string) => page.getByTestId(`conversation-column-${status}`);
    const card = (status: string) => column(status).getByTestId('conversation-card').filter({ hasText: customer.name });
    await slowly(() => card('active').count()).toBe(1);
    expect(await card('active').getByText(replyText.slice(0, 60), { exact: false }).count()).toBe(1);
    expect(await card('active').getByText('Agent: Front Desk').count()).toBe(1);

    // The modal: both messages, the free window, the contact links.
    await card('active').getByRole('button').click();
    const dialog = page.getByRole('dialog');
    const log = dialog.getByRole('log', { name: 'Messages' });
    await eventually(() => log.getByTestId('conversation-message').count()).toBe(2);
    expect(await log.getByText(question, { exact: true }).count()).toBe(1);
    expect(await log.getByText(replyText, { exact: true }).count()).toBe(1);
    expect(await dialog.getByText('Can send new messages for free during 24h period').count()).toBe(1);
    expect(await dialog.getByRole('link', { name: 'Open WhatsApp' }).getAttribute('href')).toBe(`https://wa.me/${customer.waId}`);
    expect(await dialog.getByRole('link', { name: 'View contact' }).getAttribute('href')).toMatch(/^\/contacts\/.+/);

    // Escalate: an empty reason is refused without a call, then a real one.
    await dialog.getByRole('button', { name: 'Escalate' }).click();
    await eventually(() => dialog.getByText('Escalation reason is required').count()).toBe(1);
    const reason = 'Customer wants to reschedule a surgery: needs a person';
    await dialog.getByLabel('Escalation reason').fill(reason);
    await eventually(() => dialog.getByTestId('escalation-reason-count').textContent()).toBe(`${reason.length}/500 characters`);
    await dialog.getByRole('button', { name: 'Escalate' }).click();
    await eventually(() => page.getByText('Conversation escalated to a human').count()).toBeGreaterThan(0);
    // The escalation block goes once a human is needed.
    await eventually(() => dialog.getByRole('button', { name: 'Escalate' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await eventually(() => card('requires_human').count()).toBe(1);
    expect(await card('active').count()).toBe(0);
    expect(await card('requires_human').getByText('ACTION NEEDED').count()).toBe(1);
    expect(await card('requires_human').getByText(reason).count()).toBe(1);

    // A human reply from the composer reaches the customer through the Graph API.
    await card('requires_human').getByRole('button').click();
    const humanText = `A colleague will call you at 10:00 (${randomBytes(2).toString('hex')})`;
    await dialog.getByRole('textbox', { name: 'Reply' }).fill(humanText);
    await dialog.getByRole('button', { name: 'Send' }).click();
    await slowly(async () => (await graphSends(business.phoneId)).map((s) => s.text)).toContain(humanText);
    expect((await graphSends(business.phoneId)).find((s) => s.text === humanText)?.to).toBe(customer.waId);
    await eventually(() => log.getByText(humanText, { exact: true }).count()).toBe(1);
    await eventually(() => log.getByTestId('conversation-message').count()).toBe(3);
    expect(await dialog.getByRole('textbox', { name: 'Reply' }).inputValue()).toBe('');

    // Close it: status Closed, Update.
    await dialog.getByRole('combobox', { name: /^Status/ }).click();
    await page.getByRole('option', { name: 'Closed' }).click();
    await dialog.getByRole('button', { name: 'Update' }).click();
    await eventually(() => page.getByText('Conversation updated successfully').count()).toBeGreaterThan(0);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await eventually(() => card('closed').count()).toBe(1);
    expect(await card('requires_human').count()).toBe(0);
    expect(await card('closed').getByText(/^Closed /).count()).toBe(1);

    // The Message Hub lists the three messages, counts them, and its search narrows the list.
    await page.goto(`${appUrl}/messages`);
    const cards = page.getByTestId('message-card');
    await slowly(() => cards.count()).toBe(3);
    const bodies = await page.getByTestId('message-body').allTextContents();
    expect(bodies).toEqual(expect.arrayContaining([question, replyText, humanText]));
    const totalCard = page.getByTestId('message-stats').locator('p', { hasText: /^\d+$/ }).first();
    await eventually(() => totalCard.textContent()).toBe('3');
    await page.getByLabel('Search messages').fill('colleague');
    await eventually(() => cards.count()).toBe(1);
    expect(await page.getByTestId('message-body').textContent()).toBe(humanText);
  });
});
