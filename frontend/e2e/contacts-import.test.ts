/**
 * Issue 19 in the Spanish UI: a `;`-separated Windows-1252 CSV with Spanish headers, as Spanish
 * Excel saves it, goes through the import wizard (upload, mapping with the detected separator and
 * encoding, progress, result), is undone in one click (its contacts gone), and two contacts are
 * deleted at once from the list; the export (';' by default in Spanish) downloads a CSV with a BOM,
 * and from a list filtered by tag only the tagged contacts.
 */
import { describe, expect, inject, it } from 'vitest';
import { callApi, eventually, newPage, slowly, subscribedUser, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

/** Windows-1252 bytes of a text (Latin-1 range: one byte per character). */
const windows1252 = (text: string) => Buffer.from(text, 'latin1');

describe('contacts import and bulk actions (Spanish UI)', () => {
  it('imports a Spanish Excel CSV through the mapping step, undoes it in one click, deletes two contacts at once and exports with a BOM', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'clinica-import');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es', country: 'ES' });
    await page.goto(`${appUrl}/contacts`);
    await eventually(() => page.getByText('Todavía no hay contactos en tu directorio').count()).toBe(1);

    // Upload: the file as Spanish Excel writes it (';', Windows-1252, Spanish headers, a number without +34).
    const csv = ['Nombre;Teléfono;Correo', 'Lucía Muñoz;600 111 333;lucia@example.com', 'Javier Peña;+34 911 22 23 33;javier@example.com', 'Sin Teléfono;;nadie@example.com', ''].join('\r\n');
    await page.getByRole('button', { name: 'Importar CSV' }).click();
    const wizard = page.getByRole('dialog', { name: 'Importar contactos' });
    await wizard.getByTestId('import-file').setInputFiles({ name: 'pacientes.csv', mimeType: 'text/csv', buffer: windows1252(csv) });
    await eventually(() => wizard.getByText(/pacientes\.csv/).count()).toBe(1);
    await wizard.getByRole('button', { name: 'Subir y continuar' }).click();

    // Mapping: separator and encoding detected, accents decoded, columns suggested from the Spanish headers.
    await eventually(() => wizard.getByRole('table', { name: 'Primeras filas del archivo' }).count()).toBe(1);
    await expect.poll(() => wizard.getByRole('combobox', { name: 'Separador' }).textContent()).toBe('Punto y coma (;)');
    expect(await wizard.getByRole('combobox', { name: 'Codificación' }).textContent()).toBe('Windows-1252 (Excel)');
    expect(await wizard.getByRole('combobox', { name: 'Teléfono' }).textContent()).toBe('Teléfono');
    expect(await wizard.getByRole('combobox', { name: 'Nombre' }).textContent()).toBe('Nombre');
    expect(await wizard.getByRole('combobox', { name: 'Correo' }).textContent()).toBe('Correo');
    expect(await wizard.getByRole('cell', { name: 'Lucía Muñoz' }).count()).toBe(1);
    await wizard.getByRole('button', { name: 'Importar contactos' }).click();

    // Progress, then the result with the error report (the row without a phone).
    await slowly(() => wizard.getByText('Importación terminada').count()).toBe(1);
    expect(await wizard.getByTestId('import-counts').textContent()).toBe('Creados: 2 · Duplicados omitidos: 0 · Errores: 1');
    expect(await wizard.getByRole('link', { name: 'Descargar informe de errores' }).getAttribute('href')).toMatch(/^http/);
    await eventually(() => page.getByText('Lucía Muñoz', { exact: true }).count()).toBeGreaterThan(0);
    // "600 111 333" was read with the account's country (ES).
    const imported = await callApi<{ name: string; phoneNumber: string }[]>(page, 'GET', '/api/contacts?search=munoz');
    expect(imported.map((c) => c.phoneNumber)).toEqual(['+34600111333']);

    // One-click undo (confirmed): both contacts are gone.
    await wizard.getByRole('button', { name: 'Deshacer importación' }).click();
    const confirm = page.getByRole('dialog', { name: '¿Deshacer esta importación?' });
    await eventually(() => confirm.getByText('Se eliminarán los 2 contactos que creó esta importación.').count()).toBe(1);
    await confirm.getByRole('button', { name: 'Deshacer importación' }).click();
    await slowly(() => wizard.getByText('Importación deshecha').count()).toBe(1);
    await wizard.getByRole('button', { name: 'Cerrar' }).click();
    await eventually(() => page.getByText('Todavía no hay contactos en tu directorio').count()).toBe(1);

    // Bulk delete: select two of three contacts, confirm with the count.
    for (const [name, phone] of [['Ana Ruiz', '+34 600 222 001'], ['Pedro Gil', '+34 600 222 002'], ['Marta Sanz', '+34 600 222 003']]) {
      await callApi(page, 'POST', '/api/contacts', { name, phoneNumber: phone });
    }
    await page.reload();
    await eventually(() => page.getByRole('checkbox', { name: 'Seleccionar a Ana Ruiz' }).count()).toBe(1);
    await page.getByRole('checkbox', { name: 'Seleccionar a Ana Ruiz' }).check();
    await page.getByRole('checkbox', { name: 'Seleccionar a Pedro Gil' }).check();
    const bar = page.getByRole('region', { name: 'Contactos seleccionados' });
    await eventually(() => bar.getByText('2 seleccionados').count()).toBe(1);
    await bar.getByRole('button', { name: 'Eliminar' }).click();
    const confirmDelete = page.getByRole('dialog', { name: 'Eliminar 2 contactos' });
    await confirmDelete.getByRole('button', { name: 'Eliminar 2 contactos' }).click();
    await eventually(() => page.getByText('2 contactos eliminados').count()).toBe(1);
    await eventually(() => page.getByRole('checkbox', { name: /^Seleccionar a / }).count()).toBe(1);
    expect(await page.getByRole('checkbox', { name: 'Seleccionar a Marta Sanz' }).count()).toBe(1);

    // Export: ';' is the default in Spanish; the file has a UTF-8 BOM so Excel shows accents.
    await page.getByRole('button', { name: 'Exportar CSV' }).click();
    const exporter = page.getByRole('dialog', { name: 'Exportar contactos' });
    expect(await exporter.getByRole('radio', { name: /^Punto y coma/ }).isChecked()).toBe(true);
    await exporter.getByRole('button', { name: 'Exportar' }).click();
    const download = exporter.getByRole('link', { name: /^Descargar contactos-\d{4}-\d{2}-\d{2}\.csv$/ });
    await slowly(() => download.count()).toBe(1);
    const file = Buffer.from(await (await fetch((await download.getAttribute('href'))!)).arrayBuffer());
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(file.subarray(3).toString('utf8')).toMatch(/^[^\r\n]*;[^\r\n]*\r?\n.*Marta Sanz;/s);
    await exporter.getByRole('button', { name: 'Cerrar' }).click();

    // Export of a filtered list: only the contacts the tag filter shows, and the dialog says how many.
    const vips: string[] = [];
    for (const [name, phone] of [['Lucía Vip', '600 333 001'], ['Jorge Vip', '600 333 002']]) {
      vips.push((await callApi<{ _id: string }>(page, 'POST', '/api/contacts', { name, phoneNumber: phone }))._id);
    }
    await callApi(page, 'POST', '/api/contacts/bulk-tag', { ids: vips, add: ['vip'] });
    await page.goto(`${appUrl}/contacts?tag=vip`);
    await eventually(() => page.getByRole('checkbox', { name: /^Seleccionar a / }).count()).toBe(2);
    await page.getByRole('button', { name: 'Exportar CSV' }).click();
    await eventually(() => exporter.getByText('Se exportarán 2 contactos filtrados: los que coinciden con la búsqueda y los filtros actuales.').count()).toBe(1);
    await exporter.getByRole('button', { name: 'Exportar' }).click();
    await slowly(() => download.count()).toBe(1);
    const filtered = Buffer.from(await (await fetch((await download.getAttribute('href'))!)).arrayBuffer()).subarray(3).toString('utf8');
    expect(filtered).toContain('Lucía Vip;');
    expect(filtered).toContain('Jorge Vip;');
    expect(filtered).not.toContain('Marta Sanz');
    // A second export job makes the flow longer: 56 s of 60 s on the loaded machine.
  }, 90_000);
});
