/**
 * Issue 31's settings behind the agent's WhatsApp tools in a real browser, as a Spanish clinic on
 * a phone (390×844, es-ES): a read document marked "Se puede enviar a clientes", the "Enviar la
 * ubicación" switch of the "Herramientas de WhatsApp" card turned on (the card then says the
 * location is missing and links to the profile), the business location saved from a Google Maps
 * link in Profile → "Ubicación del negocio" (bad coordinates refused in Spanish first), a reload
 * shows all three as saved, and the Test Agent chat shows the location the agent would send.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { Agent, BusinessLocation } from '@agentdesk/functions/contract';
import { seriousViolations } from './axe.js';
import { PHONE, screenshot, spanishOwner } from './layout.js';
import { callApi, chatGptAndAgent, eventually, slowly, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();
const MAPS_LINK = 'https://www.google.com/maps/place/Cl%C3%ADnica+Dental+Pe%C3%B1a/@40.4187,-3.6966,17z/data=!3m1!4b1';

const toast = (page: Page, text: string) => eventually(() => page.getByText(text, { exact: true }).count()).toBeGreaterThan(0);

describe('the WhatsApp tools of an agent (Spanish clinic, on a phone)', () => {
  it('marks a document shareable, turns on sending the location, saves the location from a Google Maps link; a reload shows them', async () => {
    const page = await spanishOwner(browser(), 'agent-whatsapp-tools', PHONE);
    await page.goto(`${appUrl}/`);
    await chatGptAndAgent(page, { name: 'Sonia', description: 'Recepcionista de la clínica', objective: 'Atender a los pacientes' });
    const [agent] = await callApi<Agent[]>(page, 'GET', '/api/agents');
    expect(agent!.whatsappTools).toEqual({ sendFiles: false, sendLocation: false, offerChoices: false });

    // A price list, read, then marked "can be sent to customers".
    await page.goto(`${appUrl}/agents/${agent!._id}?tab=files`);
    await page.getByTestId('agent-file-input').setInputFiles({ name: 'Tarifas 2026.txt', mimeType: 'text/plain', buffer: Buffer.from('Limpieza dental: 60 €. Ortodoncia invisible: desde 2.900 €.') });
    const row = page.getByTestId('agent-file').filter({ hasText: 'Tarifas 2026.txt' });
    await slowly(() => row.getByText('Completado', { exact: true }).count()).toBe(1);
    const shareable = row.getByRole('switch', { name: 'Tarifas 2026.txt se puede enviar a clientes' });
    expect(await shareable.isChecked()).toBe(false);
    expect(await row.getByText('Se puede enviar a clientes').count()).toBe(1);
    await shareable.click();
    await toast(page, 'El agente ya puede enviar este archivo a los clientes');
    await eventually(() => shareable.isChecked()).toBe(true);

    // The WhatsApp tools card: three switches with their explanations; the location is turned on.
    await page.goto(`${appUrl}/agents/${agent!._id}?tab=tools`);
    const card = page.getByTestId('whatsapp-tools');
    await eventually(() => card.getByRole('heading', { name: 'Herramientas de WhatsApp' }).count()).toBe(1);
    for (const name of ['Enviar archivos', 'Enviar la ubicación', 'Ofrecer opciones con botones']) {
      expect(await card.getByRole('switch', { name }).isChecked()).toBe(false);
    }
    expect(await card.innerText()).toContain('Muestra las opciones como botones (hasta 3) o una lista (hasta 10)');
    const location = card.getByRole('switch', { name: 'Enviar la ubicación' });
    await location.click();
    await toast(page, 'Enviar la ubicación: activado para este agente');
    await eventually(() => location.isChecked()).toBe(true);
    // No location yet: the card says so and leads to the profile.
    const toProfile = card.getByRole('link', { name: 'Añádela en tu perfil' });
    await eventually(() => toProfile.count()).toBe(1);
    expect(await seriousViolations(page, '[data-testid="whatsapp-tools"]')).toEqual([]);
    await screenshot(page, 'whatsapp-tools-no-location');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await toProfile.click();

    // Profile → Ubicación del negocio: bad coordinates are refused in Spanish, then a Google Maps link is saved.
    await eventually(() => page.getByRole('heading', { name: 'Ubicación del negocio' }).count()).toBe(1);
    expect(new URL(page.url()).search).toBe('?tab=settings');
    await page.getByLabel('Nombre del negocio').fill('Clínica Dental Peña');
    await page.getByLabel('Dirección').fill('Calle de Alcalá 42, 28014 Madrid');
    const coordinates = page.getByLabel('Coordenadas o enlace de Google Maps');
    await coordinates.fill('en el centro de Madrid');
    await page.getByRole('button', { name: 'Guardar ubicación' }).click();
    await eventually(() => page.getByText('Escribe las coordenadas como latitud, longitud (p. ej. 40.4168, -3.7038) o pega un enlace de Google Maps').count()).toBe(1);
    expect(await callApi<BusinessLocation | null>(page, 'GET', '/api/user/business-location')).toBeNull();

    await coordinates.fill(MAPS_LINK);
    await page.getByRole('button', { name: 'Guardar ubicación' }).click();
    await toast(page, 'Ubicación del negocio guardada');
    const saved = page.getByTestId('business-location-saved');
    await eventually(() => saved.getByRole('link', { name: 'Verla en el mapa' }).count()).toBe(1);
    expect(await saved.getByRole('link', { name: 'Verla en el mapa' }).getAttribute('href')).toContain('40.4187,-3.6966');
    await screenshot(page, 'business-location-saved');
    expect(await callApi<BusinessLocation>(page, 'GET', '/api/user/business-location')).toEqual({
      name: 'Clínica Dental Peña',
      address: 'Calle de Alcalá 42, 28014 Madrid',
      latitude: 40.4187,
      longitude: -3.6966,
    });

    // A reload shows the location, the switch and the shareable document as saved.
    await page.reload();
    await eventually(() => page.getByTestId('business-location-saved').innerText()).toContain('Clínica Dental Peña');
    expect(await page.getByLabel('Coordenadas o enlace de Google Maps').inputValue()).toBe('40.4187, -3.6966');
    expect(await page.getByLabel('Dirección').inputValue()).toBe('Calle de Alcalá 42, 28014 Madrid');

    await page.goto(`${appUrl}/agents/${agent!._id}?tab=tools`);
    await eventually(() => card.getByRole('switch', { name: 'Enviar la ubicación' }).isChecked()).toBe(true);
    await eventually(() => card.innerText()).toContain('Envía: Clínica Dental Peña, Calle de Alcalá 42, 28014 Madrid');
    expect(await card.getByRole('link', { name: 'Añádela en tu perfil' }).count()).toBe(0);
    expect(await card.getByRole('switch', { name: 'Enviar archivos' }).isChecked()).toBe(false);

    // The Test Agent chat shows what WhatsApp would send (the fake model calls the tool the message names).
    await page.goto(`${appUrl}/agents/${agent!._id}?tab=test`);
    const input = page.getByLabel('Mensaje', { exact: true });
    await input.fill('¿Dónde estáis? send_location');
    await input.press('Enter');
    const preview = page.getByTestId('whatsapp-preview');
    await slowly(() => preview.count()).toBe(1);
    expect(await preview.innerText()).toContain('En WhatsApp, el agente enviaría también:');
    expect(await preview.innerText()).toContain('Clínica Dental Peña');
    expect(await preview.getByRole('link', { name: 'Verla en el mapa' }).getAttribute('href')).toContain('40.4187,-3.6966');
    await screenshot(page, 'test-chat-location');

    await page.goto(`${appUrl}/agents/${agent!._id}?tab=files`);
    await eventually(() => page.getByTestId('agent-file').filter({ hasText: 'Tarifas 2026.txt' }).getByRole('switch', { name: 'Tarifas 2026.txt se puede enviar a clientes' }).isChecked()).toBe(true);
    await screenshot(page, 'files-shareable');
    const stored = await callApi<Agent>(page, 'GET', `/api/agents/${agent!._id}`);
    expect(stored.whatsappTools).toEqual({ sendFiles: false, sendLocation: true, offerChoices: false });
    expect(stored.files[0]!.shareable).toBe(true);
    await page.context().close();
  });
});
