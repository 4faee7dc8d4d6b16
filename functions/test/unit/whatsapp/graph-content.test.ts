/**
 * HttpGraphClient.sendContent (issue 31) against the fake Graph API on loopback: media by id,
 * the business location, reply buttons and a list go out in Meta's shapes; the fake refuses what
 * Meta refuses (over its limits, missing parts) with Meta's 131008 / 131009 and the details.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkContent } from '../../../local/fake-whatsapp/content-checks.js';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../local/fake-whatsapp/server.js';
import { HttpGraphClient } from '../../../src/adapters/whatsapp/graph.js';
import { GraphError } from '../../../src/domain/whatsapp/ports.js';

let fake: FakeWhatsApp;
let client: HttpGraphClient;
const phoneId = '106540352242922';
const credentials = { bearerToken: 'EAAG-good-token', businessId: '102290129340398', phoneId };
const to = '+34600000001';

beforeAll(async () => {
  fake = await startFakeWhatsApp();
  client = new HttpGraphClient({ baseUrl: fake.graphUrl, timeoutMs: 2000 });
});
afterAll(() => fake.close());
/** Media ids the fake knows (a send must name one uploaded to it, as Meta's must). */
const MEDIA_IDS = ['1013859600285441', '2013859600285441', '3013859600285441'];
beforeEach(async () => {
  fake.reset();
  for (const mediaId of MEDIA_IDS) {
    const res = await fetch(`${fake.url}/_test/media`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bytes: Buffer.from('%PDF-1.4 tarifas').toString('base64'), mimeType: 'application/pdf', mediaId }),
    });
    expect(res.status).toBe(200);
  }
});

const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to: '34600000001' };

async function refusal(run: () => Promise<unknown>): Promise<GraphError> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GraphError)) throw new Error(`expected a GraphError, got ${String(error)}`);
  return error;
}

describe('HttpGraphClient.sendContent', () => {
  it('sends a document by its Meta media id with caption and file name, and our reference', async () => {
    const { messageId } = await client.sendContent(credentials, to, { type: 'document', mediaId: '1013859600285441', caption: 'Tarifas 2026', fileName: 'tarifas-clínica.pdf' }, { reference: '01J0CONV-01J0MSG' });
    expect(messageId).toMatch(/^wamid\./);
    expect(fake.sent[0]).toMatchObject({ type: 'document', status: 200, id: messageId });
    expect(fake.sent[0]!.payload).toEqual({
      ...base,
      type: 'document',
      document: { id: '1013859600285441', caption: 'Tarifas 2026', filename: 'tarifas-clínica.pdf' },
      biz_opaque_callback_data: '01J0CONV-01J0MSG',
    });
  });

  it('sends an image with a caption and an audio without one (Meta takes none)', async () => {
    await client.sendContent(credentials, to, { type: 'image', mediaId: '2013859600285441', caption: 'Así llegas', fileName: 'mapa.png' });
    await client.sendContent(credentials, to, { type: 'audio', mediaId: '3013859600285441', caption: 'ignored' });
    expect(fake.sent.map((s) => s.payload)).toEqual([
      { ...base, type: 'image', image: { id: '2013859600285441', caption: 'Así llegas' } },
      { ...base, type: 'audio', audio: { id: '3013859600285441' } },
    ]);
  });

  it('refuses a media id that was never uploaded, as Meta does', async () => {
    const error = await refusal(() => client.sendContent(credentials, to, { type: 'document', mediaId: '9999999999999999', fileName: 'x.pdf' }));
    expect(error).toMatchObject({ kind: 'bad_request', code: 131009 });
    expect(error.message).toContain('not a media uploaded');
  });

  it('sends a location with its name and address', async () => {
    await client.sendContent(credentials, to, { type: 'location', location: { latitude: 40.4168, longitude: -3.7038, name: 'Clínica Sonrisa', address: 'Calle Mayor 1, Madrid' } });
    expect(fake.sent[0]!.payload).toEqual({
      ...base,
      type: 'location',
      location: { latitude: 40.4168, longitude: -3.7038, name: 'Clínica Sonrisa', address: 'Calle Mayor 1, Madrid' },
    });
  });

  it('sends reply buttons and a list in Meta’s interactive shapes', async () => {
    await client.sendContent(credentials, to, {
      type: 'interactive',
      body: '¿Qué día te viene mejor?',
      interactive: { kind: 'buttons', options: [{ id: 'lun', title: 'Lunes' }, { id: 'mar', title: 'Martes' }] },
    });
    await client.sendContent(credentials, to, {
      type: 'interactive',
      body: 'Estos son nuestros tratamientos:',
      interactive: {
        kind: 'list',
        buttonLabel: 'Ver opciones',
        options: [
          { id: 'orto', title: 'Ortodoncia invisible', description: 'Alineadores transparentes' },
          { id: 'limp', title: 'Limpieza' },
        ],
      },
    });
    expect(fake.sent.map((s) => [s.status, s.payload])).toEqual([
      [
        200,
        {
          ...base,
          type: 'interactive',
          interactive: {
            type: 'button',
            body: { text: '¿Qué día te viene mejor?' },
            action: { buttons: [{ type: 'reply', reply: { id: 'lun', title: 'Lunes' } }, { type: 'reply', reply: { id: 'mar', title: 'Martes' } }] },
          },
        },
      ],
      [
        200,
        {
          ...base,
          type: 'interactive',
          interactive: {
            type: 'list',
            body: { text: 'Estos son nuestros tratamientos:' },
            action: {
              button: 'Ver opciones',
              sections: [{ rows: [{ id: 'orto', title: 'Ortodoncia invisible', description: 'Alineadores transparentes' }, { id: 'limp', title: 'Limpieza' }] }],
            },
          },
        },
      ],
    ]);
  });

  it('a send Meta refuses for a bad interactive body is a lasting bad_request with Meta’s details', async () => {
    const error = await refusal(() =>
      client.sendContent(credentials, to, {
        type: 'interactive',
        body: 'Elige',
        interactive: { kind: 'buttons', options: [{ id: 'a', title: 'Un título demasiado largo para un botón' }] },
      }),
    );
    expect(error).toMatchObject({ kind: 'bad_request', code: 131009, deliveryUnknown: false });
    expect(error.message).toBe('(#131009) Parameter value is not valid: Button title length invalid. Min length: 1, Max length: 20');
    expect(fake.sent[0]).toMatchObject({ type: 'interactive', status: 400, id: '' });
  });
});

describe('the fake Graph API’s content checks (Meta’s shapes and limits)', () => {
  const buttons = (n: number, title = (i: number) => `Opción ${i}`) => ({
    type: 'interactive',
    interactive: { type: 'button', body: { text: 'Elige' }, action: { buttons: Array.from({ length: n }, (_, i) => ({ type: 'reply', reply: { id: `b${i}`, title: title(i) } })) } },
  });
  const list = (rows: unknown[], extra: Record<string, unknown> = {}) => ({
    type: 'interactive',
    interactive: { type: 'list', body: { text: 'Elige' }, action: { button: 'Ver opciones', sections: [{ title: 'Tratamientos', rows }], ...extra } },
  });
  const row = (i: number, over: Record<string, unknown> = {}) => ({ id: `r${i}`, title: `Fila ${i}`, ...over });
  const check = (payload: Record<string, unknown>) => checkContent(String(payload.type), payload);

  it('takes sound sends', () => {
    expect(check(buttons(3))).toBeNull();
    expect(check(list(Array.from({ length: 10 }, (_, i) => row(i))))).toBeNull();
    expect(check({ type: 'location', location: { latitude: '40.4168', longitude: '-3.7038' } })).toBeNull();
    expect(check({ type: 'document', document: { id: '1013859600285441', filename: 'a.pdf' } })).toBeNull();
    // An emoji counts as one character: 20 of them fit a button title.
    expect(check(buttons(1, () => '😀'.repeat(20)))).toBeNull();
  });

  it('refuses what Meta refuses, with its codes', () => {
    expect(check(buttons(4))).toMatchObject({ code: 131009, details: expect.stringContaining('Max allowed buttons: 3') });
    expect(check(buttons(2, () => 'Igual'))).toMatchObject({ code: 131009, details: expect.stringContaining('unique') });
    expect(check(list(Array.from({ length: 11 }, (_, i) => row(i))))).toMatchObject({ code: 131009, details: expect.stringContaining('Max allowed: 10') });
    expect(check(list([row(1, { title: 'x'.repeat(25) })]))).toMatchObject({ code: 131009, details: expect.stringContaining('Row title') });
    expect(check(list([row(1, { description: 'x'.repeat(73) })]))).toMatchObject({ code: 131009, details: expect.stringContaining('Row description') });
    expect(check(list([row(1)], { button: 'Un botón demasiado largo' }))).toMatchObject({ code: 131009, details: expect.stringContaining('action.button') });
    expect(check({ type: 'interactive', interactive: { type: 'button', action: { buttons: [] } } })).toMatchObject({ code: 131008 });
    expect(check({ type: 'interactive', interactive: { type: 'button', body: { text: 'x'.repeat(1025) }, action: {} } })).toMatchObject({ code: 131009, details: expect.stringContaining('Body text') });
    expect(check({ type: 'location', location: { latitude: 91, longitude: 0 } })).toMatchObject({ code: 131009 });
    expect(check({ type: 'location', location: { longitude: 0 } })).toMatchObject({ code: 131008 });
    expect(check({ type: 'image', image: { id: 'not-a-media-id' } })).toMatchObject({ code: 131009 });
    expect(check({ type: 'audio', audio: { id: '1013859600285441', caption: 'hola' } })).toMatchObject({ code: 131009 });
    expect(check({ type: 'document', document: {} })).toMatchObject({ code: 131008 });
  });

  it('refuses a media id that was not uploaded, when the uploads are known', () => {
    const uploaded = new Set(['1013859600285441']);
    const isUploaded = (id: string) => uploaded.has(id);
    expect(checkContent('document', { document: { id: '1013859600285441' } }, { isUploaded })).toBeNull();
    expect(checkContent('document', { document: { id: '9999999999999999' } }, { isUploaded })).toMatchObject({ code: 131009, details: expect.stringContaining('not a media uploaded') });
  });
});
