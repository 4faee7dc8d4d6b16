/**
 * Issue 29's "Done when": a Spanish clinic owner's first hour, in a Spanish browser (es-ES,
 * Europe/Madrid) against the local runtime, with one sign-up whose session every step goes on
 * with. Each step is a test of its own, in order, so a broken step says which one it is:
 *
 *   1. signs up on the Spanish register page and lands on the Spanish onboarding (account es/ES/Madrid);
 *   2. subscribes in euros from the onboarding's plan step through the test checkout, which speaks Spanish;
 *   3. imports a ';'-separated Windows-1252 sheet with "Apellidos" and multi-tag cells; the
 *      contacts and the import history (skipped rows with reasons);
 *   4. on a 390×844 phone: a WhatsApp conversation (signed Meta deliveries, the fake OpenAI)
 *      that the owner takes over and returns to the AI, which answers what came in meanwhile;
 *   5. on that phone: turns on alerts on the device (a subscription the fake push service
 *      minted) and receives the conversation's escalation through the fake push service, in Spanish;
 *   6. exports the contacts: a dated Spanish file name, Spanish headers.
 *
 * A later step does not lean on an earlier one's screens, only on its data; if the payment step
 * broke, step 3 gives the account a trial (so the remaining steps still say what they see).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { Contact, Conversation, Plan, Subscription } from '@agentdesk/functions/contract';
import type { User } from '../../functions/src/contract/auth.js';
import { fakePushClient, type MintedSubscription } from '../../functions/test/support/push.js';
import { waCustomer } from '../../functions/test/support/whatsapp.js';
import { LAPTOP, openSpanishConversation, PHONE, wholeInView } from './layout.js';
import {
  activateTrial,
  callApi,
  chatGptAndAgent,
  connectWhatsAppBusiness,
  customerMessagesInFlight,
  customerWrites,
  dayIn,
  downloadedBytes,
  eventually,
  graphSends,
  newPage,
  randomDigits,
  register,
  slowly,
  useBrowser,
  useMintedSubscription,
  userIdOf,
  watchPage,
  type WhatsAppBusiness,
} from './flows.js';

const appUrl = inject('appUrl');
const mailboxUrl = inject('mailboxUrl');
const browser = useBrowser();
const push = fakePushClient(inject('pushServiceUrl'), inject('pushServiceCa'));
afterAll(() => push.close());

/** Spanish Excel's "CSV (delimitado por punto y coma)": ';', Windows-1252, CRLF, numbers without +34, tags split on ';' (a quoted cell) or ','. */
const SHEET = [
  'Nombre;Apellidos;Teléfono;Etiquetas;Notas',
  'Lucía;Muñoz Peña;612 34 56 78;"vip; ortodoncia";Prefiere tardes',
  'Íñigo;Sáez;612 34 56 79;vip, revisión;',
  'Ana;Ruiz;12345;;', // line 4: not a phone number
  'Pepa;Martín;612 34 56 78;;', // line 5: line 2's number again
  '',
].join('\r\n');

const oneLine = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/** What the walk carries from step to step. */
const walk: {
  laptop?: Page;
  phone?: { page: Page; minted: MintedSubscription };
  business?: WhatsAppBusiness;
  customer?: ReturnType<typeof waCustomer>;
  conversationId?: string;
} = {};

function signedUp(): Page {
  if (!walk.laptop) throw new Error('No signed-up session: step 1 (sign-up) did not finish');
  return walk.laptop;
}

/** The laptop page of the sign-up, watched in the running test. */
function laptop(): Page {
  const page = signedUp();
  watchPage(page);
  return page;
}

/** The owner's phone: a 390×844 Spanish browser with the laptop's session, alerts allowed, its PushManager answering with a subscription the fake push service minted. */
async function phone(): Promise<{ page: Page; minted: MintedSubscription }> {
  if (walk.phone) {
    watchPage(walk.phone.page);
    return walk.phone;
  }
  const storageState = await signedUp().context().storageState();
  const page = await newPage(browser(), { ...PHONE, storageState });
  await page.context().grantPermissions(['notifications'], { origin: appUrl });
  const minted = await push.mint();
  await useMintedSubscription(page, minted);
  walk.phone = { page, minted };
  return walk.phone;
}

const agentTexts = async (business: WhatsAppBusiness) => (await graphSends(business.phoneId)).map((s) => s.text);

describe('the first hour of a Spanish clinic owner', () => {
  it('1. signs up on the Spanish page and lands on the Spanish onboarding', async () => {
    const page = await newPage(browser(), LAPTOP);
    const email = `primera-hora+${randomUUID().slice(0, 8)}@example.com`;
    await page.goto(`${appUrl}/register`);
    await eventually(() => page.getByRole('heading', { name: 'Crea tu cuenta' }).count()).toBe(1);
    await register(page, appUrl, mailboxUrl, email, 'es');
    await eventually(() => page.getByRole('heading', { name: 'Un agente que nunca pierde una llamada' }).count()).toBe(1);
    walk.laptop = page;
    expect(await callApi<User>(page, 'GET', '/api/me')).toMatchObject({ language: 'es', country: 'ES', timeZone: 'Europe/Madrid' });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
  });

  it('2. subscribes in euros from the onboarding through a Spanish checkout', async () => {
    const page = laptop();
    for (let step = 1; step <= 4; step++) await page.getByRole('button', { name: 'Siguiente' }).click();
    await eventually(() => page.getByRole('heading', { name: 'Elige tu plan' }).count()).toBe(1);
    expect(await page.getByRole('radio', { name: 'Profesional' }).isChecked()).toBe(true);
    expect(oneLine(await page.getByTestId('onboarding-plan-professional').textContent())).toContain('79 €/mes');
    expect((await callApi<Plan[]>(page, 'GET', '/api/subscription/plans')).map((p) => p.currency)).toEqual(['eur', 'eur', 'eur']);
    await page.getByRole('button', { name: 'Continuar' }).click();

    // The test checkout in the account's language, charging euros.
    await eventually(() => page.getByRole('button', { name: 'Pagar' }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    expect(await page.getByText('Modo de prueba: no se cobra nada').count()).toBeGreaterThan(0);
    expect(await page.getByRole('heading', { name: 'Suscríbete a Professional' }).count()).toBe(1);
    expect(await page.locator('.price').getAttribute('data-currency')).toBe('eur');
    expect(oneLine(await page.locator('.price').textContent())).toBe('79,00 € al mes');
    expect(await page.getByText('5 días de prueba gratis').count()).toBe(1);
    await page.getByRole('button', { name: 'Pagar' }).click();

    await eventually(() => new URL(page.url()).pathname).toBe('/subscription/success');
    await eventually(() => page.getByRole('heading', { name: 'Pago completado' }).count()).toBe(1);
    expect(await callApi<Subscription>(page, 'GET', '/api/subscription/current')).toMatchObject({ plan: 'professional', status: 'trialing' });
    await page.getByRole('link', { name: 'Ir al panel' }).click();
    await eventually(() => page.getByRole('heading', { name: 'Panel', exact: true }).count()).toBe(1);
  });

  it('3. imports a ;-separated Windows-1252 sheet with Apellidos and multi-tag cells; the import history says what was skipped and why', async () => {
    const page = laptop();
    // Only if step 2 could not pay: a trial, so this and the next steps still say what they see.
    if (!(await callApi<Subscription | null>(page, 'GET', '/api/subscription/current'))) await activateTrial(await userIdOf(page));

    await page.goto(`${appUrl}/contacts`);
    await eventually(() => page.getByText('Todavía no hay contactos en tu directorio').count()).toBe(1);
    await page.getByRole('button', { name: 'Importar CSV' }).click();
    const wizard = page.getByRole('dialog', { name: 'Importar contactos' });
    await wizard.getByTestId('import-file').setInputFiles({ name: 'pacientes.csv', mimeType: 'text/csv', buffer: Buffer.from(SHEET, 'latin1') });
    await wizard.getByRole('button', { name: 'Subir y continuar' }).click();

    // Mapping: ';' and Windows-1252 detected, accents read right, Apellidos as the last name.
    await eventually(() => wizard.getByRole('table', { name: 'Primeras filas del archivo' }).count()).toBe(1);
    await eventually(() => wizard.getByRole('combobox', { name: 'Separador' }).textContent()).toBe('Punto y coma (;)');
    expect(await wizard.getByRole('combobox', { name: 'Codificación' }).textContent()).toBe('Windows-1252 (Excel)');
    expect(await wizard.getByRole('combobox', { name: 'Apellidos' }).textContent()).toBe('Apellidos');
    expect(await wizard.getByRole('combobox', { name: 'Etiquetas' }).textContent()).toBe('Etiquetas');
    expect(await wizard.getByRole('cell', { name: 'Muñoz Peña' }).count()).toBe(1);
    await wizard.getByRole('button', { name: 'Importar contactos' }).click();

    const skipped = '2 filas omitidas: teléfono no válido (1) y repetida en el archivo (1)';
    await slowly(() => wizard.getByText('Importación terminada').count()).toBe(1);
    expect(await wizard.getByTestId('import-counts').textContent()).toBe('Creados: 2 · Duplicados omitidos: 1 · Errores: 1');
    expect(await wizard.getByTestId('import-skipped').textContent()).toBe(skipped);
    await wizard.getByRole('button', { name: 'Cerrar' }).click();

    // The contacts: whole names, the origin in words, a Spanish number grouped as in Spain; tags split on ';' and ','.
    const row = page.getByRole('row').filter({ hasText: 'Lucía Muñoz Peña' });
    await eventually(() => row.count()).toBe(1);
    expect(await row.getByText('Importado (CSV)').count()).toBe(1);
    expect(await row.getByText('612 34 56 78').count()).toBeGreaterThan(0);
    const found = async (search: string) =>
      (await callApi<Contact[]>(page, 'GET', `/api/contacts?search=${search}`)).map((c) => [c.firstName, c.lastName, c.phoneNumber, [...c.metadata.tags].sort()]);
    // Found by a surname typed without its accents.
    expect(await found('munoz')).toEqual([['Lucía', 'Muñoz Peña', '+34612345678', ['ortodoncia', 'vip']]]);
    expect(await found('saez')).toEqual([['Íñigo', 'Sáez', '+34612345679', ['revisión', 'vip']]]);

    // The import history: the same skipped rows and why.
    await page.getByRole('button', { name: 'Importar CSV' }).click();
    const history = wizard.getByRole('list', { name: 'Importaciones recientes' });
    await eventually(() => history.getByText(skipped).count()).toBe(1);
    expect(await history.getByText(/pacientes\.csv/).count()).toBeGreaterThan(0);
    // Its error report: each skipped line with the reason, in Spanish.
    const [report] = await Promise.all([page.waitForEvent('download'), history.getByRole('button', { name: 'Descargar informe de errores' }).click()]);
    expect(report.suggestedFilename()).toBe('errores-pacientes.csv');
    expect((await downloadedBytes(report)).toString('utf8').replace(/^\uFEFF/, '').trim().split('\r\n')).toEqual([
      'Línea;Nombre;Apellidos;Teléfono;Etiquetas;Notas;Motivo',
      '4;Ana;Ruiz;12345;;;Introduce un número de teléfono válido',
      '5;Pepa;Martín;612 34 56 78;;;Mismo número de teléfono que la línea 2',
    ]);
    await wizard.getByRole('button', { name: 'Cancelar' }).click();
    await eventually(() => wizard.count()).toBe(0);
  });

  it('4. on a 390×844 phone: a WhatsApp conversation taken over and returned to the AI', async () => {
    const { page } = await phone();
    await page.goto(`${appUrl}/dashboard`);
    const userId = await userIdOf(page);
    await chatGptAndAgent(page, {
      name: 'Recepción',
      description: 'Responde por WhatsApp sobre horarios, precios y citas de la clínica',
      objective: 'Ayudar rápido y pasar los casos difíciles a una persona',
    });
    const business = await connectWhatsAppBusiness(page);
    const customer = waCustomer(`Begoña ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);
    Object.assign(walk, { business, customer });
    await customerWrites(business, customer, '¿Tenéis cita el sábado?');
    // Issue 33: a Spanish (EU) account's first agent reply starts with the AI notice.
    const first = expect.stringMatching(/^Estás hablando con un asistente de inteligencia artificial[^\n]*\n\nEcho: ¿Tenéis cita el sábado\?$/);
    await slowly(() => agentTexts(business)).toEqual([first]);

    const { dialog, log } = await openSpanishConversation(page, appUrl, customer.name);
    await eventually(() => log.getByText('¿Tenéis cita el sábado?', { exact: true }).count()).toBe(1);
    walk.conversationId = new URL(page.url()).searchParams.get('open') ?? undefined;

    // The phone opens on the messages, the reply box in view at the bottom.
    const reply = dialog.getByRole('textbox', { name: /Respuesta/ });
    await eventually(() => wholeInView(page, reply)).toBe('in view');

    // The owner answers: a person is answering now, and the AI stays quiet on what comes next.
    await reply.fill('Sí, a las 10. Un saludo, Marta');
    await dialog.getByRole('button', { name: 'Enviar', exact: true }).click();
    await eventually(() => dialog.getByTestId('conversation-answered-by-text').textContent()).toBe('Responde una persona');
    await customerWrites(business, customer, '¿Y el domingo?');
    await slowly(() => log.getByText('¿Y el domingo?', { exact: true }).count()).toBe(1);
    // The agent has taken it up and left it to the person.
    await slowly(() => customerMessagesInFlight(userId)).toBe(0);
    expect(await agentTexts(business)).toEqual([first, 'Sí, a las 10. Un saludo, Marta']);

    // Devolver a la IA: the owner is told, and the AI answers the message of the pause.
    await dialog.getByRole('button', { name: 'Devolver a la IA' }).click();
    await eventually(() => page.getByText('La IA está respondiendo 1 mensaje sin responder').count()).toBeGreaterThan(0);
    await eventually(() => dialog.getByTestId('conversation-answered-by-text').textContent()).toBe('Responde la IA');
    await slowly(() => log.getByText('Echo: ¿Y el domingo?', { exact: true }).count()).toBe(1);
    expect(await agentTexts(business)).toEqual([first, 'Sí, a las 10. Un saludo, Marta', 'Echo: ¿Y el domingo?']);
    await dialog.getByRole('button', { name: 'Volver a la bandeja' }).click();
    await eventually(() => dialog.count()).toBe(0);
  });

  it('5. on the phone: alerts on this device, and the escalation arrives through the push service in Spanish', async () => {
    const { page, minted } = await phone();
    await page.goto(`${appUrl}/dashboard`);
    // The built app's service worker.
    await slowly(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).active))).toBe(true);
    await page.getByTestId('notification-bell').click();
    await page.getByRole('menuitem', { name: 'Avisos en este dispositivo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Avisos en tus dispositivos' });
    await eventually(() => dialog.getByTestId('push-state').getAttribute('data-state')).toBe('off');
    await dialog.getByRole('button', { name: 'Activar avisos en este dispositivo' }).click();
    await eventually(() => dialog.getByTestId('push-state').getAttribute('data-state')).toBe('on');
    expect(await dialog.getByTestId('push-state').textContent()).toBe('Los avisos están activados en este dispositivo.');
    const { publicKey } = await callApi<{ publicKey: string }>(page, 'GET', '/api/push/public-key');
    expect(await page.evaluate(() => (window as unknown as { __pushServerKey?: string }).__pushServerKey)).toBe(publicKey);
    await dialog.getByRole('button', { name: 'Cerrar' }).click();

    // The conversation of step 4 (or a new one, if that step did not get so far) is escalated.
    if (!walk.business || !walk.customer) {
      walk.business = await connectWhatsAppBusiness(page);
      walk.customer = waCustomer(`Begoña ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);
      await customerWrites(walk.business, walk.customer, '¿Tenéis cita el sábado?');
    }
    const name = walk.customer.name;
    await slowly(async () => {
      const list = await callApi<Conversation[]>(page, 'GET', '/api/conversations');
      walk.conversationId = list.find((c) => c.profileName === name || c.contact.name === name)?._id ?? '';
      return walk.conversationId;
    }).not.toBe('');
    await callApi(page, 'POST', `/api/conversations/${walk.conversationId}/escalate`, { reason: 'Pide una factura con IVA' });

    await slowly(async () => (await push.messages(minted.id)).map((m) => m.json?.title)).toContain(`Conversación escalada: ${name}`);
    const escalation = (await push.messages(minted.id)).find((m) => m.json?.title === `Conversación escalada: ${name}`)!;
    expect(escalation.json).toMatchObject({ body: 'Pide una factura con IVA', url: `${appUrl}/conversations?open=${walk.conversationId}` });
    expect(escalation.vapid.k).toBe(publicKey);

    // The alert's link opens that conversation on the phone.
    await page.goto(escalation.json!.url!);
    await eventually(() => page.getByRole('dialog').getByRole('log', { name: 'Mensajes' }).getByText('¿Tenéis cita el sábado?', { exact: true }).count()).toBe(1);
  });

  it('6. exports the contacts: a dated Spanish file name and Spanish headers', async () => {
    const page = laptop();
    await page.goto(`${appUrl}/contacts`);
    await page.getByRole('button', { name: 'Exportar CSV' }).click();
    const exporter = page.getByRole('dialog', { name: 'Exportar contactos' });
    await exporter.getByRole('button', { name: 'Exportar' }).click();
    const today = dayIn('Europe/Madrid');
    const fileName = `contactos-${today}.csv`;
    const link = exporter.getByRole('link', { name: `Descargar ${fileName}` });
    await slowly(() => link.count()).toBe(1);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe(fileName);
    const bytes = await downloadedBytes(download);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').trim().split('\r\n');
    expect(lines[0]).toBe('Nombre;Apellidos;Teléfono;Correo electrónico;Etiquetas;Notas;Origen;Creado');
    const lucia = lines.find((l) => l.startsWith('Lucía;'));
    expect(lucia).toMatch(new RegExp(`^Lucía;Muñoz Peña;[^;]*612[^;]*;;"?(vip, ortodoncia|ortodoncia, vip)"?;Prefiere tardes;Importado \\(CSV\\);${today}$`));
  });
});
