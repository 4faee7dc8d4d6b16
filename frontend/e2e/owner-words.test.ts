/**
 * Issue 29 item 2 in a real browser, in Spanish (es-ES browser, Madrid time): a clinic owner reads
 * the ChatGPT settings, an agent, its custom-tool editor and the voice settings in words they
 * understand — no model knobs in the main form (response length and creativity folded away under
 * "Opciones avanzadas"), no JSON types ("fecha: texto", not "fecha: string"), no language codes or
 * provider voice names, a forwarding number asked with the country's example — and dates in the
 * account's time zone.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { Agent } from '../../functions/src/contract/agents.js';
import type { VoiceSettings } from '../../functions/src/contract/voice.js';
import { activateTrial, callApi, eventually, newPage, ONBOARDING_HEADING, register, useBrowser, userIdOf } from './flows.js';

const appUrl = inject('appUrl');
const mailboxUrl = inject('mailboxUrl');
const browser = useBrowser();

const JARGON = /Temperatura|Tokens máximos|Prompt del sistema|\bstring\b|\bboolean\b|E\.164|\(es-ES\)|Standard A|\+1415/;

describe('an owner reads the product in their words (Spanish)', () => {
  it('ChatGPT settings, the agent form, the tool editor and the voice settings without jargon', async () => {
    const page = await newPage(browser(), { locale: 'es-ES', timezoneId: 'Europe/Madrid' });
    // The shared sign-up steps speak English: English for the sign-up only (the browser stays es-ES).
    await page.goto(`${appUrl}/login`);
    await page.evaluate(() => localStorage.setItem('agentdesk.language', 'en'));
    await register(page, appUrl, mailboxUrl, `palabras+${randomUUID().slice(0, 8)}@example.com`);
    await eventually(() => page.getByRole('heading', { name: ONBOARDING_HEADING }).count()).toBe(1);
    await activateTrial(await userIdOf(page));
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es', timeZone: 'Europe/Madrid' });
    await callApi(page, 'POST', '/api/integrations/chatgpt/setup', { apiKey: `sk-e2e-${randomBytes(8).toString('hex')}` });

    // ChatGPT: the current default model, recommended; length and creativity in words.
    await page.goto(`${appUrl}/integrations`);
    const card = page.getByTestId('integration-chatgpt');
    await eventually(() => card.getByRole('button', { name: 'Gestionar' }).count()).toBe(1);
    await card.getByRole('button', { name: 'Gestionar' }).click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.getByText('Conexión con ChatGPT').count()).toBe(1);
    const details = await dialog.innerText();
    expect(details).toContain('gpt-4.1-mini (recomendado)');
    expect(details).toContain('Longitud de las respuestas');
    expect(details).toContain('Hasta unas 750 palabras');
    expect(details).toContain('Creatividad');
    expect(details).toContain('Equilibrada (0,7)');
    expect(details).not.toMatch(JARGON);

    // The form: the knobs folded away under "Opciones avanzadas" until opened.
    await dialog.getByRole('button', { name: 'Editar configuración' }).click();
    await eventually(() => dialog.getByLabel('Instrucciones para todos los agentes').count()).toBe(1);
    const creativity = dialog.getByRole('spinbutton', { name: 'Creatividad' });
    const length = dialog.getByRole('spinbutton', { name: 'Longitud de las respuestas' });
    expect(await creativity.isVisible()).toBe(false);
    expect(await length.isVisible()).toBe(false);
    expect(await dialog.innerText()).not.toMatch(JARGON);
    const advanced = dialog.getByRole('button', { name: /Opciones avanzadas/ });
    expect(await advanced.getAttribute('aria-expanded')).toBe('false');
    await advanced.click();
    await eventually(() => creativity.isVisible()).toBe(true);
    expect(await length.inputValue()).toBe('1000');
    expect(await dialog.getByText('Precisa', { exact: true }).count()).toBe(1);
    expect(await dialog.innerText()).not.toMatch(/Temperatura|Tokens máximos/);
    await page.keyboard.press('Escape');
    await eventually(() => page.getByRole('dialog').count()).toBe(0);

    // An agent with a custom tool whose parameters are text and yes/no.
    const agent = await callApi<Agent>(page, 'POST', '/api/agents', { name: 'Recepción' });
    await callApi(page, 'POST', `/api/agents/${agent._id}/tools`, {
      name: 'reservar_cita',
      description: 'Reserva una cita cuando el paciente elige día y hora',
      endpoint: 'https://example.com/citas',
      method: 'POST',
      properties: { fecha: { type: 'string', description: 'Día de la cita, AAAA-MM-DD' }, primera_visita: { type: 'boolean', description: 'Si es su primera visita' } },
      required: ['fecha'],
    });

    // The agent form: Spanish labels, its dates in Madrid time.
    await page.goto(`${appUrl}/agents/${agent._id}`);
    await eventually(() => page.getByRole('button', { name: 'Editar detalles' }).count()).toBe(1);
    const created = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Madrid' }).format(new Date(agent.createdAt));
    expect(await page.getByTestId('agent-details-view').innerText()).toContain(created);
    await page.getByRole('button', { name: 'Editar detalles' }).click();
    const form = page.getByTestId('agent-details-form');
    await eventually(() => form.getByLabel('Instrucciones').count()).toBe(1);
    expect(await form.innerText()).not.toMatch(JARGON);
    await form.getByRole('button', { name: 'Cancelar' }).click();

    // The tools tab and editor: types in words.
    await page.getByRole('tab', { name: /^Herramientas personalizadas/ }).click();
    const tool = page.getByTestId('agent-tool').filter({ hasText: 'reservar_cita' });
    await eventually(() => tool.count()).toBe(1);
    expect(await tool.getByText('fecha *: texto').count()).toBe(1);
    expect(await tool.getByText('primera_visita: sí/no').count()).toBe(1);
    expect(await tool.innerText()).not.toMatch(JARGON);
    await tool.getByRole('button', { name: 'Editar reservar_cita' }).click();
    const editor = page.getByRole('dialog');
    await eventually(() => editor.getByTestId('tool-parameter').count()).toBe(2);
    const typeOf = (row: number) => editor.getByTestId('tool-parameter').nth(row).getByRole('combobox');
    expect(await typeOf(0).innerText()).toBe('texto');
    expect(await typeOf(1).innerText()).toBe('sí/no');
    await typeOf(0).click();
    const options = await page.getByRole('listbox').getByRole('option').allInnerTexts();
    expect(options).toEqual(['texto', 'número', 'sí/no', 'grupo de campos', 'lista']);
    await page.keyboard.press('Escape');
    expect(await editor.innerText()).not.toMatch(JARGON);
    expect(await editor.innerText()).not.toContain('query string');
    await page.keyboard.press('Escape');

    // Voice settings: languages and voices by name, the forwarding number with Spain's example.
    await page.goto(`${appUrl}/voice-settings`);
    const language = page.getByRole('combobox', { name: /^Idioma\s/ });
    await eventually(() => language.count()).toBe(1);
    expect(await language.innerText()).toBe('Español (España)');
    expect(await page.getByRole('combobox', { name: 'Voz' }).innerText()).toContain('Voz femenina 1');
    const forward = page.getByLabel('Número de desvío');
    expect(await forward.getAttribute('placeholder')).toBe('+34 612 34 56 78');
    expect(await page.getByText(/Número con prefijo de país, p\. ej\. \+34 612 34 56 78/).count()).toBe(1);
    expect(await page.locator('main').innerText()).not.toMatch(JARGON);
    await page.getByRole('combobox', { name: 'Voz' }).click();
    const voices = (await page.getByRole('listbox').innerText()).replace(/\s+/g, ' ');
    expect(voices).toContain('Voz femenina 1 · Femenina · Español (España)');
    expect(voices).toContain('Clara y neutra');
    expect(voices).not.toMatch(/Standard|Spanish \(Spain\)|standard voice/);
    await page.keyboard.press('Escape');
    await forward.fill('+34 612 34 56 78');
    await page.getByRole('button', { name: 'Guardar configuración' }).click();
    await eventually(() => page.getByText('Configuración de voz actualizada correctamente').count()).toBeGreaterThan(0);
    expect((await callApi<VoiceSettings>(page, 'GET', '/api/voice-settings')).escalationForwardNumber).toBe('+34612345678');
    await page.context().close();
  });
});
