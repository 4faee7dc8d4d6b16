/**
 * Issue 18 in a real browser, in Spanish, against the local runtime (the stack's fake OpenAI): an
 * owner sets the agent's knowledge settings, uploads a two-page PDF whose opening hours are a table
 * on page 2, asks in Test Agent and sees the passage with the question's word marked, the document
 * name, "página 2" and the relevance in %; a question the document does not cover gets the refusal
 * and is listed under Conocimiento (with the tab's badge); answering it makes a knowledge entry
 * that answers the same question next time (a source of kind entry); another one is dismissed.
 * Entries are added, edited (with the contract's limits in Spanish) and deleted.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { DEFAULT_MIN_RELEVANCE, type Agent } from '@agentdesk/functions/contract';
import { buildPdfFromSpec } from '../../functions/test/fixtures/knowledge/builders.js';
import { callApi, eventually, newPage, slowly, subscribedUser, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const FILE = 'horario-clinica.pdf';
const REFUSAL = 'Lo siento, no tengo esa información.';

/** The clinic's leaflet: treatments with prices on page 1, the opening hours table on page 2. */
function leaflet(): Promise<Uint8Array> {
  return buildPdfFromSpec({
    title: 'Clínica Dental Sonrisa',
    blocks: [
      { kind: 'heading', level: 1, text: 'Clínica Dental Sonrisa' },
      { kind: 'paragraph', text: 'Somos una clínica dental familiar en el centro de Valencia. Atendemos a adultos y niños con cita previa.' },
      { kind: 'heading', level: 2, text: 'Tratamientos' },
      { kind: 'table', header: true, rows: [['Tratamiento', 'Precio'], ['Limpieza dental', '60 €'], ['Blanqueamiento', '250 €'], ['Empaste', '80 €']] },
      { kind: 'heading', level: 2, text: 'Horario de atención', page: 2 },
      { kind: 'paragraph', text: 'Abrimos todos los días laborables y los sábados por la mañana.', page: 2 },
      {
        kind: 'table',
        header: true,
        page: 2,
        rows: [['Día', 'Horario'], ['Lunes a jueves', '9:00–19:00'], ['Viernes', '9:00–15:00'], ['Sábado', '10:00–14:00'], ['Domingo', 'Cerrado']],
      },
    ],
  });
}

/**
 * A Spanish-speaking owner with ChatGPT connected and one agent with a description and objective
 * but no instructions, so it stays disabled (issue 19); Test Agent chats with it all the same. Its id.
 */
async function spanishOwnerWithAgent(page: Page, label: string): Promise<string> {
  await subscribedUser(page, label);
  await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });
  await callApi(page, 'POST', '/api/integrations/chatgpt/setup', { apiKey: `sk-e2e-${randomBytes(8).toString('hex')}` });
  const agent = await callApi<Agent>(page, 'POST', '/api/agents', { name: 'Recepción' });
  await callApi(page, 'PUT', `/api/agents/${agent._id}`, {
    description: 'Recepción de la Clínica Dental Sonrisa',
    objective: 'Responder sobre horarios y precios con los documentos de la clínica.',
    priority: 1,
  });
  return agent._id;
}

/** Sends a Test Agent message and waits for the reply; the reply's bubble. */
async function ask(page: Page, text: string) {
  const replies = page.getByTestId('chat-agent-message');
  const input = page.getByLabel('Mensaje', { exact: true });
  // The tab (and the conversation kept for it) is on screen before the replies are counted.
  await eventually(() => input.count()).toBe(1);
  const before = await replies.count();
  await input.fill(text);
  await input.press('Enter');
  await slowly(() => replies.count()).toBe(before + 1);
  return replies.nth(before);
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const spaces = (s: string | null) => (s ?? '').replace(/\s/g, ' ');
/** The default threshold (chosen on the graded set) as the slider shows it, and five steps above. */
const DEFAULT_PERCENT = Math.round(DEFAULT_MIN_RELEVANCE * 100);

const browser = useBrowser();

describe('knowledge that answers from the right passage, in Spanish', () => {
  it('shows the passage, page and relevance, refuses what the document does not say, and learns the owner\'s answer', async () => {
    const page = await newPage(browser());
    const agentId = await spanishOwnerWithAgent(page, 'knowledge-es');

    // Knowledge settings: Spanish analysis; the minimum relevance moved, saved, then back to the default.
    await page.goto(`${appUrl}/agents/${agentId}?tab=knowledge`);
    const settings = page.getByTestId('knowledge-settings');
    await eventually(() => settings.getByRole('heading', { name: 'Ajustes del conocimiento' }).count()).toBe(1);
    await settings.getByRole('combobox', { name: 'Idioma del conocimiento' }).click();
    await page.getByRole('option', { name: 'Español' }).click();
    const slider = settings.getByRole('slider', { name: 'Relevancia mínima' });
    expect(spaces(await settings.getByTestId('min-relevance-value').textContent())).toBe(`${DEFAULT_PERCENT} %`);
    await slider.focus();
    for (let i = 0; i < 5; i++) await slider.press('ArrowRight');
    expect(spaces(await settings.getByTestId('min-relevance-value').textContent())).toBe(`${DEFAULT_PERCENT + 5} %`);
    await settings.getByRole('button', { name: 'Guardar ajustes' }).click();
    await eventually(() => page.getByText('Ajustes del conocimiento guardados').count()).toBeGreaterThan(0);
    await eventually(async () => (await callApi<Agent>(page, 'GET', `/api/agents/${agentId}`)).minRelevance).toBe((DEFAULT_PERCENT + 5) / 100);
    expect((await callApi<Agent>(page, 'GET', `/api/agents/${agentId}`)).language).toBe('es');
    await settings.getByRole('button', { name: 'Restablecer el predeterminado' }).click();
    expect(spaces(await settings.getByTestId('min-relevance-value').textContent())).toBe(`${DEFAULT_PERCENT} %`);
    await settings.getByRole('button', { name: 'Guardar ajustes' }).click();
    await eventually(async () => (await callApi<Agent>(page, 'GET', `/api/agents/${agentId}`)).minRelevance).toBe(DEFAULT_PERCENT / 100);
    // Nothing asked yet.
    await eventually(() => page.getByText('No hay preguntas sin respuesta').count()).toBe(1);

    // The leaflet, uploaded from the Files tab and read by the worker.
    await page.getByRole('tab', { name: /^Archivos/ }).click();
    await page.getByTestId('agent-file-input').setInputFiles({ name: FILE, mimeType: 'application/pdf', buffer: Buffer.from(await leaflet()) });
    const fileRow = page.getByTestId('agent-file').filter({ hasText: FILE });
    await slowly(() => fileRow.getByText('Completado', { exact: true }).count()).toBe(1);

    // A question the table answers: the passage with "sábado" marked, the document, page 2, the relevance.
    await page.getByRole('tab', { name: 'Probar agente' }).click();
    const answered = await ask(page, '¿Qué horario tenéis el sábado?');
    expect(await answered.innerText()).toContain(`From ${FILE}:`);
    await answered.getByRole('button', { name: /Lo que usó el agente/ }).click();
    const source = answered.getByTestId('chat-source').filter({ has: page.getByTestId('chat-source-name').getByText(FILE, { exact: true }) }).first();
    await eventually(() => source.count()).toBe(1);
    const marks = (await source.getByTestId('chat-source-passage').locator('mark').allTextContents()).map(fold);
    expect(marks).toContain('sabado');
    expect(await source.getByTestId('chat-source-passage').innerText()).toContain('10:00–14:00');
    expect(await source.getByTestId('chat-source-location').innerText()).toContain('página 2');
    expect(spaces(await source.getByTestId('chat-source-score').textContent())).toMatch(/^\d{1,3} % de relevancia$/);

    // Two questions the leaflet does not cover: the agent says it does not know.
    const bitcoin = '¿Aceptáis pagos con bitcoin?';
    expect(await (await ask(page, bitcoin)).innerText()).toContain(REFUSAL);
    expect(await (await ask(page, '¿Tenéis aparcamiento para clientes?')).innerText()).toContain(REFUSAL);

    // Conocimiento: the badge counts the open groups; both questions are listed.
    const knowledgeTab = page.getByRole('tab', { name: 'Conocimiento, 2 preguntas sin respuesta' });
    await slowly(() => knowledgeTab.count()).toBe(1);
    await knowledgeTab.click();
    const groups = page.getByTestId('unanswered-group');
    await eventually(() => groups.count()).toBe(2);
    const bitcoinGroup = groups.filter({ hasText: bitcoin });
    expect(await bitcoinGroup.getByTestId('unanswered-count').textContent()).toBe('preguntada 1 vez');
    expect(await bitcoinGroup.getByText('Chat de prueba').count()).toBe(1);
    expect(await bitcoinGroup.innerText()).toMatch(/última vez (ahora|hace \d+ (segundos?|minutos?))/);

    // Dismiss the parking question; answer the bitcoin one (the question comes prefilled).
    await page.getByRole('button', { name: 'Descartar: ¿Tenéis aparcamiento para clientes?' }).click();
    await eventually(() => page.getByText('Preguntas descartadas').count()).toBeGreaterThan(0);
    await eventually(() => groups.count()).toBe(1);
    await page.getByRole('button', { name: `Responder: ${bitcoin}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Responder a esta pregunta' });
    await eventually(() => dialog.count()).toBe(1);
    expect(await dialog.getByRole('textbox', { name: 'Pregunta' }).inputValue()).toBe(bitcoin);
    const answer = 'No aceptamos bitcoin: puedes pagar en efectivo, con tarjeta o con Bizum.';
    await dialog.getByRole('textbox', { name: 'Respuesta' }).fill(answer);
    expect(await dialog.getByText(`${answer.length} / 2000`).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await eventually(() => page.getByText('Respuesta guardada: el agente la usará a partir de ahora').count()).toBeGreaterThan(0);
    await eventually(() => groups.count()).toBe(0);
    await eventually(() => page.getByText('No hay preguntas sin respuesta').count()).toBe(1);
    await eventually(() => page.getByTestId('knowledge-entry').filter({ hasText: answer }).count()).toBe(1);
    await eventually(() => page.getByRole('tab', { name: 'Conocimiento', exact: true }).count()).toBe(1);

    // Asked again, the agent answers from the entry.
    await page.getByRole('tab', { name: 'Probar agente' }).click();
    const learned = await ask(page, bitcoin);
    expect(await learned.innerText()).toContain(`From ${bitcoin}:`);
    expect(await learned.innerText()).not.toContain(REFUSAL);
    await learned.getByRole('button', { name: /Lo que usó el agente/ }).click();
    const fromEntry = learned.locator('[data-testid="chat-source"][data-kind="entry"]').first();
    await eventually(() => fromEntry.count()).toBe(1);
    expect(await fromEntry.getByTestId('chat-source-name').innerText()).toBe(bitcoin);
    expect(await fromEntry.getByTestId('chat-source-location').innerText()).toContain('Entrada de conocimiento');
    expect(await fromEntry.getByTestId('chat-source-passage').innerText()).toContain('No aceptamos bitcoin');
    await page.context().close();
  });

  it('adds, edits and deletes knowledge entries within the limits, in Spanish', async () => {
    const page = await newPage(browser());
    const agentId = await spanishOwnerWithAgent(page, 'entries-es');
    await page.goto(`${appUrl}/agents/${agentId}?tab=knowledge`);
    const card = page.getByTestId('entries-card');
    await eventually(() => card.getByText('Aún no hay entradas de conocimiento').count()).toBe(1);
    expect(await card.getByText('0 de 200 entradas').count()).toBe(1);

    await card.getByRole('button', { name: 'Añadir entrada' }).click();
    const dialog = page.getByRole('dialog', { name: 'Añadir entrada de conocimiento' });
    await eventually(() => dialog.count()).toBe(1);
    // Empty, then too long: the contract's messages in Spanish.
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await eventually(() => dialog.getByText('La pregunta es obligatoria').count()).toBe(1);
    await dialog.getByRole('textbox', { name: 'Pregunta' }).fill('¿Y los sábados por la tarde?');
    await dialog.getByRole('textbox', { name: 'Respuesta' }).fill('x'.repeat(2001));
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await eventually(() => dialog.getByText('La respuesta debe tener 2000 caracteres o menos').count()).toBe(1);
    expect(await dialog.getByText('2001 / 2000').count()).toBe(1);
    await dialog.getByRole('textbox', { name: 'Respuesta' }).fill('Los sábados por la tarde está cerrado.');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await eventually(() => page.getByText('Entrada de conocimiento añadida').count()).toBeGreaterThan(0);
    const entry = card.getByTestId('knowledge-entry');
    await eventually(() => entry.count()).toBe(1);
    expect(await card.getByText('1 de 200 entradas').count()).toBe(1);

    await card.getByRole('button', { name: 'Editar entrada: ¿Y los sábados por la tarde?' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar entrada de conocimiento' });
    await eventually(() => edit.count()).toBe(1);
    expect(await edit.getByRole('textbox', { name: 'Respuesta' }).inputValue()).toBe('Los sábados por la tarde está cerrado.');
    await edit.getByRole('textbox', { name: 'Respuesta' }).fill('Los sábados abrimos solo de 10:00 a 14:00.');
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await eventually(() => page.getByText('Entrada de conocimiento actualizada').count()).toBeGreaterThan(0);
    await eventually(() => entry.filter({ hasText: 'Los sábados abrimos solo de 10:00 a 14:00.' }).count()).toBe(1);
    const stored = await callApi<Agent>(page, 'GET', `/api/agents/${agentId}`);
    expect(stored.entries.map((e) => [e.question, e.answer])).toEqual([['¿Y los sábados por la tarde?', 'Los sábados abrimos solo de 10:00 a 14:00.']]);

    await card.getByRole('button', { name: 'Eliminar entrada: ¿Y los sábados por la tarde?' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: '¿Eliminar la entrada de conocimiento?' });
    await eventually(() => confirm.count()).toBe(1);
    await confirm.getByRole('button', { name: 'Eliminar' }).click();
    await eventually(() => page.getByText('Entrada de conocimiento eliminada').count()).toBeGreaterThan(0);
    await eventually(() => entry.count()).toBe(0);
    expect((await callApi<Agent>(page, 'GET', `/api/agents/${agentId}`)).entries).toEqual([]);
    await page.context().close();
  });
});
