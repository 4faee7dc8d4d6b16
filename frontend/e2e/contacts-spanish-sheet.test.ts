/**
 * Issue 29 item 4 in a real browser, in Spanish (es-ES browser, Madrid time): a clinic owner imports
 * the sheet Spanish Excel saves (';', Windows-1252) with "Apellidos", several tags in a cell and bad
 * rows; the result and the import history say how many rows were skipped and why, and the history
 * downloads the error report; the list shows the names whole, the origin in words and the numbers
 * grouped as in Spain; "Importar desde WhatsApp" asks first; the export downloads as
 * contactos-<date>.csv with Spanish headers and every field.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { activateTrial, callApi, dayIn, downloadedBytes, eventually, newPage, ONBOARDING_HEADING, register, slowly, useBrowser, userIdOf } from './flows.js';

const appUrl = inject('appUrl');
const mailboxUrl = inject('mailboxUrl');
const browser = useBrowser();

const SHEET = [
  'Nombre;Apellidos;Teléfono;Etiquetas;Notas',
  'María;López García;612 34 56 78;vip, ortodoncia;Prefiere mañanas',
  'José;Núñez;612 34 56 79;revisión;',
  'Ana;Ruiz;12345;;',
  'Pepa;Martín;612 34 56 78;;',
  '',
].join('\r\n');

describe('contacts like a Spanish sheet (Spanish UI)', () => {
  it('imports Nombre + Apellidos and multi-tag cells, shows the skipped rows and their report in the history, and exports in Spanish', async () => {
    const page = await newPage(browser(), { locale: 'es-ES', timezoneId: 'Europe/Madrid' });
    // The shared sign-up steps speak English: English for the sign-up only (the browser stays es-ES).
    await page.goto(`${appUrl}/login`);
    await page.evaluate(() => localStorage.setItem('agentdesk.language', 'en'));
    await register(page, appUrl, mailboxUrl, `hoja+${randomUUID().slice(0, 8)}@example.com`);
    await eventually(() => page.getByRole('heading', { name: ONBOARDING_HEADING }).count()).toBe(1);
    await activateTrial(await userIdOf(page));
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es', country: 'ES', timeZone: 'Europe/Madrid' });
    await page.goto(`${appUrl}/contacts`);
    await eventually(() => page.getByText('Todavía no hay contactos en tu directorio').count()).toBe(1);

    // "Importar desde WhatsApp" says what it will do and asks first; cancelling imports nothing.
    await page.getByRole('button', { name: 'Importar desde WhatsApp' }).first().click();
    const askWhatsApp = page.getByRole('dialog', { name: '¿Importar contactos desde WhatsApp?' });
    await eventually(() => askWhatsApp.getByText(/Cada persona que ha escrito a tu número de WhatsApp/).count()).toBe(1);
    await askWhatsApp.getByRole('button', { name: 'Cancelar' }).click();
    await eventually(() => askWhatsApp.count()).toBe(0);

    // Import the sheet: Apellidos is suggested as the last name.
    await page.getByRole('button', { name: 'Importar CSV' }).click();
    const wizard = page.getByRole('dialog', { name: 'Importar contactos' });
    await wizard.getByTestId('import-file').setInputFiles({ name: 'pacientes.csv', mimeType: 'text/csv', buffer: Buffer.from(SHEET, 'latin1') });
    await wizard.getByRole('button', { name: 'Subir y continuar' }).click();
    await eventually(() => wizard.getByRole('table', { name: 'Primeras filas del archivo' }).count()).toBe(1);
    expect(await wizard.getByRole('combobox', { name: 'Apellidos' }).textContent()).toBe('Apellidos');
    expect(await wizard.getByRole('combobox', { name: 'Etiquetas' }).textContent()).toBe('Etiquetas');
    expect(await wizard.getByRole('cell', { name: 'López García' }).count()).toBe(1);
    await wizard.getByRole('button', { name: 'Importar contactos' }).click();

    // The result says how many rows were skipped and why.
    await slowly(() => wizard.getByText('Importación terminada').count()).toBe(1);
    expect(await wizard.getByTestId('import-counts').textContent()).toBe('Creados: 2 · Duplicados omitidos: 1 · Errores: 1');
    expect(await wizard.getByTestId('import-skipped').textContent()).toBe('2 filas omitidas: teléfono no válido (1) y repetida en el archivo (1)');
    await wizard.getByRole('button', { name: 'Cerrar' }).click();

    // The list: whole names, the origin in words, Spanish numbers grouped as in Spain.
    await eventually(() => page.getByRole('link', { name: 'Ver María López García' }).count()).toBe(1);
    const row = page.getByRole('row').filter({ hasText: 'María López García' });
    expect(await row.getByText('Importado (CSV)').count()).toBe(1);
    expect(await row.getByText('612 34 56 78').count()).toBeGreaterThan(0);
    // Found by a surname without its accent.
    await page.getByLabel('Buscar contactos').fill('lopez');
    await eventually(() => page.getByRole('link', { name: /^Ver / }).count()).toBe(1);
    await page.getByLabel('Buscar contactos').fill('');

    // The history: the same skipped rows, and the error report downloads with the reasons in Spanish.
    await page.getByRole('button', { name: 'Importar CSV' }).click();
    const history = wizard.getByRole('list', { name: 'Importaciones recientes' });
    await eventually(() => history.getByText('2 filas omitidas: teléfono no válido (1) y repetida en el archivo (1)').count()).toBe(1);
    const [report] = await Promise.all([page.waitForEvent('download'), history.getByRole('button', { name: 'Descargar informe de errores' }).click()]);
    expect(report.suggestedFilename()).toBe('errores-pacientes.csv');
    const reportText = (await downloadedBytes(report)).toString('utf8');
    expect(reportText.replace(/^\uFEFF/, '').trim().split('\r\n')).toEqual([
      'Línea;Nombre;Apellidos;Teléfono;Etiquetas;Notas;Motivo',
      '4;Ana;Ruiz;12345;;;Introduce un número de teléfono válido',
      '5;Pepa;Martín;612 34 56 78;;;Mismo número de teléfono que la línea 2',
    ]);
    await wizard.getByRole('button', { name: 'Cancelar' }).click();

    // The export: ';' by default, a dated Spanish name, Spanish headers and every field.
    await page.getByRole('button', { name: 'Exportar CSV' }).click();
    const exporter = page.getByRole('dialog', { name: 'Exportar contactos' });
    await exporter.getByRole('button', { name: 'Exportar' }).click();
    const fileName = `contactos-${dayIn('Europe/Madrid')}.csv`;
    const link = exporter.getByRole('link', { name: `Descargar ${fileName}` });
    await slowly(() => link.count()).toBe(1);
    const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(file.suggestedFilename()).toBe(fileName);
    const bytes = await downloadedBytes(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').trim().split('\r\n');
    expect(lines[0]).toBe('Nombre;Apellidos;Teléfono;Correo electrónico;Etiquetas;Notas;Origen;Creado');
    expect(lines).toContain(`María;López García;+34 612345678;;"vip, ortodoncia";Prefiere mañanas;Importado (CSV);${dayIn('Europe/Madrid')}`);
    await page.context().close();
  }, 120_000);
});
