/**
 * The agents flow in a real browser against the local runtime (the stack's fake OpenAI is the
 * default model API): connect ChatGPT, create an agent and describe it, give it a PDF and wait until
 * it is read, add a custom HTTP tool, then ask the agent something that needs both — the reply must
 * carry the tool's answer and the document's fact, and 'What the agent used' must list both.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { ONBOARDING_HEADING, activateTrial, callApi, eventually, newPage, register, subscribedUser, userIdOf, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const mailboxUrl = inject('mailboxUrl');
const fixturesUrl = inject('webFixturesUrl');

const PDF = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../functions/test/fixtures/knowledge/dental-price-list.pdf');

/** Slower steps: ingestion goes through the queue worker, a chat turn through the model twice. */
const slowly = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 60_000, interval: 250 });

interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
}

/** A JSON endpoint on the allow-listed fixture server (under a random prefix), and what it received. */
async function toolEndpoint(body: unknown) {
  const prefix = `/e2e${randomBytes(6).toString('hex')}`;
  const res = await fetch(`${fixturesUrl}/_fixtures/routes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: `${prefix}/price`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  expect(res.ok).toBe(true);
  return {
    url: `${fixturesUrl}${prefix}/price`,
    requests: async (): Promise<RecordedRequest[]> => {
      const seen = await fetch(`${fixturesUrl}/_fixtures/requests?${new URLSearchParams({ prefix })}`);
      return ((await seen.json()) as { requests: RecordedRequest[] }).requests;
    },
  };
}

const browser = useBrowser();

describe('agents', () => {
  it('answers in Test Agent with a custom tool and an uploaded PDF', async () => {
    const page = await newPage(browser());
    await register(page, appUrl, mailboxUrl, `agents+${randomUUID().slice(0, 8)}@example.com`);
    await eventually(() => page.getByRole('heading', { name: ONBOARDING_HEADING }).count()).toBe(1);
    await activateTrial(await userIdOf(page));

    // ChatGPT with a key the fake OpenAI accepts; the base URL stays empty (the stack's default is the fake).
    await page.goto(`${appUrl}/integrations`);
    const chatgpt = page.getByTestId('integration-chatgpt');
    await eventually(() => chatgpt.getByRole('button', { name: 'Connect' }).count()).toBe(1);
    await chatgpt.getByRole('button', { name: 'Connect' }).click();
    const setup = page.getByRole('dialog');
    await setup.getByRole('textbox', { name: 'API Key' }).fill(`sk-e2e-${randomBytes(8).toString('hex')}`);
    await setup.getByRole('button', { name: 'Save' }).click();
    await eventually(() => page.getByText('ChatGPT integration configured successfully').count()).toBeGreaterThan(0);

    // An agent, described in the Details tab.
    await page.goto(`${appUrl}/agents`);
    await eventually(() => page.getByRole('button', { name: 'Create Your First Agent' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Create Your First Agent' }).click();
    const create = page.getByRole('dialog');
    await create.getByLabel('Name').fill('Clinic Helper');
    await create.getByRole('button', { name: 'Create Agent' }).click();
    await eventually(() => page.getByText('Agent created successfully').count()).toBeGreaterThan(0);
    await page.getByTestId('agent-card').filter({ hasText: 'Clinic Helper' }).getByRole('link').first().click();
    await eventually(() => page.getByRole('heading', { name: 'Clinic Helper' }).count()).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Edit Details' }).click();
    await page.getByLabel('Description').fill('Front desk of Sonrisa Dental Clinic: prices and appointments.');
    await page.getByLabel('Objective').fill('Answer price questions from the price list and quote current offers.');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await eventually(() => page.getByText('Agent updated successfully').count()).toBeGreaterThan(0);

    // Files: upload the PDF (straight to storage with progress), then wait until it has been read.
    await page.getByRole('tab', { name: /^Files/ }).click();
    await page.getByTestId('agent-file-input').setInputFiles(PDF);
    await eventually(() => page.getByText('1 file uploaded successfully').count()).toBeGreaterThan(0);
    const fileRow = page.getByTestId('agent-file').filter({ hasText: 'dental-price-list.pdf' });
    await slowly(() => fileRow.getByText('Completed', { exact: true }).count()).toBe(1);
    await eventually(() => page.getByRole('tab', { name: 'Files (1)' }).count()).toBe(1);

    // Custom Tools: a GET tool with a header and one required parameter, on the fixture server.
    const offer = `Invisalign offer ${randomBytes(3).toString('hex').toUpperCase()}: $2,900 until Friday`;
    const endpoint = await toolEndpoint({ service: 'invisalign', offer });
    await page.getByRole('tab', { name: /^Custom Tools/ }).click();
    await eventually(() => page.getByText('No tools configured').count()).toBe(1);
    await page.getByRole('button', { name: 'Add Tool' }).click();
    const toolDialog = page.getByRole('dialog');
    await toolDialog.getByLabel('Tool Name').fill('Check Price');
    await eventually(() => toolDialog.getByText('Saved as: check_price').count()).toBe(1);
    await toolDialog.getByLabel('Description', { exact: false }).first().fill('Current offers and prices for a dental service');
    await toolDialog.getByLabel('Endpoint (URL)').fill(endpoint.url);
    await toolDialog.getByLabel('Header Key').fill('X-Api-Key');
    await toolDialog.getByLabel('Header Value').fill('e2e-secret');
    await toolDialog.getByRole('button', { name: 'Add Parameter' }).click();
    const parameter = toolDialog.getByTestId('tool-parameter');
    await parameter.getByLabel('Name').fill('service');
    await parameter.getByLabel('Description').fill('The service the customer asks about');
    await parameter.getByLabel('Required').check();
    await toolDialog.getByRole('button', { name: 'Create Tool' }).click();
    await eventually(() => page.getByText('Tool created successfully').count()).toBeGreaterThan(0);
    const toolCard = page.getByTestId('agent-tool').filter({ hasText: 'check_price' });
    await eventually(() => toolCard.count()).toBe(1);
    expect(await toolCard.getByText('HTTP Request').count()).toBe(1);
    expect(await toolCard.getByText('service *: text').count()).toBe(1);

    // Test Agent: one message that names the tool (with its argument) and asks about the PDF.
    await page.getByRole('tab', { name: 'Test Agent' }).click();
    const input = page.getByLabel('Message', { exact: true });
    await input.fill('check_price service=invisalign — and what does invisible aligner treatment usually cost?');
    await input.press('Enter');
    const reply = page.getByTestId('chat-agent-message');
    await slowly(() => reply.count()).toBe(1);

    // The reply carries the tool's answer and the document's fact (the price list's aligner price).
    await expect.poll(() => reply.innerText()).toContain(offer);
    // The fake model quotes the first sentence of the passage it got: the price list's "Cosmetic dentistry"
    // section (chunks follow the document's headings), which holds the aligner price the source shows below.
    expect(await reply.innerText()).toContain('From dental-price-list.pdf: Cosmetic dentistry In-office teeth whitening costs $420');

    // What the agent used: the tool call with its argument and result, the PDF with the fact.
    await reply.getByRole('button', { name: /What the agent used/ }).click();
    const call = reply.getByTestId('chat-tool-call');
    await eventually(() => call.count()).toBe(1);
    expect(await call.innerText()).toContain('check_price');
    expect(await call.innerText()).toContain('"service": "invisalign"');
    expect(await call.innerText()).toContain(offer);
    const source = reply.getByTestId('chat-source').filter({ hasText: 'dental-price-list.pdf' });
    expect(await source.filter({ hasText: 'Invisible aligner treatment starts at $3,900' }).count()).toBe(1);

    // The tool really ran: GET with the argument in the query string and the header attached.
    const calls = await endpoint.requests();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/price', query: { service: 'invisalign' } });
    expect(calls[0]?.headers['x-api-key']).toBe('e2e-secret');
    await page.context().close();
  });

  it('manages the ChatGPT connection: the details, a stored-settings test, a settings change that keeps the key, disconnect', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'chatgpt');
    await callApi(page, 'POST', '/api/integrations/chatgpt/setup', { apiKey: `sk-e2e-${randomBytes(8).toString('hex')}` });

    await page.goto(`${appUrl}/integrations`);
    const card = page.getByTestId('integration-chatgpt');
    await eventually(() => card.getByRole('button', { name: 'Manage' }).count()).toBe(1);
    await card.getByRole('button', { name: 'Manage' }).click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.getByText('ChatGPT connection').count()).toBe(1);
    await eventually(() => dialog.getByText('Stored (encrypted)').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await eventually(() => dialog.getByText('Connection successful').count()).toBeGreaterThan(0);

    // Edit settings: the stored key stays (the field shows it is stored), the temperature (Creativity,
    // folded away under Advanced options) changes.
    await dialog.getByRole('button', { name: 'Edit settings' }).click();
    await eventually(() => dialog.getByText(/A key is stored/).count()).toBe(1);
    expect(await dialog.getByRole('spinbutton', { name: 'Creativity' }).isVisible()).toBe(false);
    await dialog.getByRole('button', { name: /Advanced options/ }).click();
    await dialog.getByRole('spinbutton', { name: 'Creativity' }).fill('0.3');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await eventually(() => page.getByText('ChatGPT integration configured successfully').count()).toBeGreaterThan(0);
    const stored = await callApi<{ settings: { temperature: number }; credentials: { apiKey: string } }>(page, 'GET', '/api/integrations/chatgpt');
    expect(stored.settings.temperature).toBe(0.3);
    expect(stored.credentials.apiKey).toBe('***');

    // Disconnect behind its confirmation: the card offers Connect again and the API has nothing stored.
    await eventually(() => dialog.getByRole('button', { name: 'Disconnect' }).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Disconnect' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Disconnect ChatGPT?' });
    await eventually(() => confirm.count()).toBe(1);
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await eventually(() => page.getByText('Integration disconnected successfully').count()).toBeGreaterThan(0);
    await eventually(() => card.getByRole('button', { name: 'Connect' }).count()).toBe(1);
    await expect(callApi(page, 'GET', '/api/integrations/chatgpt')).rejects.toThrow(/: 404 /);
    await page.context().close();
  });
});
