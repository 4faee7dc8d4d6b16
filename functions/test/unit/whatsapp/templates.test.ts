/**
 * Message templates and usernames (issue 17): the template text filled with its parameters, the
 * templates the inbox offers, Meta's send errors in words, and the Graph client's template calls
 * and BSUID recipients against the fake Graph API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../local/fake-whatsapp/server.js';
import { HttpGraphClient, recipientFields } from '../../../src/adapters/whatsapp/graph.js';
import { fillTemplate, sendTemplateRequest, templatePlaceholders } from '../../../src/contract/whatsapp-templates.js';
import { ValidationError, TooManyRequestsError } from '../../../src/domain/errors.js';
import { META_ERROR_WORDS } from '../../../src/domain/whatsapp/graph-errors.js';
import { GraphError, isBsuid } from '../../../src/domain/whatsapp/ports.js';
import { graphFailure } from '../../../src/domain/whatsapp/reply-channel.js';
import { sendableTemplates, toWhatsAppTemplate } from '../../../src/domain/whatsapp/templates.js';

describe('template text', () => {
  it('placeholders: numbered ones in number order (each once), named ones as they appear', () => {
    expect(templatePlaceholders('Hola {{2}}, {{1}} y otra vez {{2}}')).toEqual(['1', '2']);
    expect(templatePlaceholders('Hi {{first_name}}, order {{ order_id }}')).toEqual(['first_name', 'order_id']);
    expect(templatePlaceholders('No parameters')).toEqual([]);
  });

  it('fills every placeholder with its parameter (accents and symbols kept), an unfilled one stays as written', () => {
    expect(fillTemplate('Hola {{1}}, tu cita del {{2}}.', ['Lucía', 'martes 4 · 9:30'])).toBe('Hola Lucía, tu cita del martes 4 · 9:30.');
    expect(fillTemplate('{{2}} antes que {{1}}, y {{2}} otra vez', ['uno', 'dos'])).toBe('dos antes que uno, y dos otra vez');
    expect(fillTemplate('Hola {{1}}, tu cita del {{2}}.', ['Lucía'])).toBe('Hola Lucía, tu cita del {{2}}.');
    expect(fillTemplate('Hi {{name}}', ['$1 & {{x}}'])).toBe('Hi $1 & {{x}}');
  });

  it('the send request: trimmed, a blank parameter refused with the message', () => {
    expect(sendTemplateRequest.safeParse({ name: ' recordatorio_cita ', language: 'es', parameters: [' Lucía '] }).data).toEqual({
      name: 'recordatorio_cita',
      language: 'es',
      parameters: ['Lucía'],
    });
    const blank = sendTemplateRequest.safeParse({ name: 'x', language: 'es', parameters: [' '] });
    expect(blank.success).toBe(false);
    expect(blank.error?.issues[0]?.message).toBe('Every template parameter needs a value');
  });
});

describe('templates offered', () => {
  const body = (text: string) => ({ type: 'BODY', text });

  it('only approved templates with body-only parameters, sorted by name and language', () => {
    const offered = sendableTemplates([
      { name: 'zeta', language: 'es', status: 'APPROVED', category: 'utility', components: [body('Hola {{1}}')] },
      { name: 'alfa', language: 'es', status: 'APPROVED', category: 'MARKETING', components: [{ type: 'HEADER', format: 'TEXT', text: 'Oferta' }, body('Sin parámetros')] },
      { name: 'pending', language: 'es', status: 'PENDING', category: 'UTILITY', components: [body('x')] },
      { name: 'media', language: 'es', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'HEADER', format: 'IMAGE' }, body('x')] },
      { name: 'header_var', language: 'es', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'HEADER', format: 'TEXT', text: 'Hola {{1}}' }, body('x')] },
      { name: 'url_var', language: 'es', status: 'APPROVED', category: 'UTILITY', components: [body('x'), { type: 'BUTTONS', buttons: [{ type: 'URL', url: 'https://x.es/{{1}}' }] }] },
      { name: 'no_body', language: 'es', status: 'APPROVED', category: 'UTILITY', components: [] },
    ]);

    expect(offered).toEqual([
      { name: 'alfa', language: 'es', category: 'MARKETING', body: 'Sin parámetros', parameters: [], parameterCount: 0 },
      { name: 'zeta', language: 'es', category: 'UTILITY', body: 'Hola {{1}}', parameters: ['1'], parameterCount: 1 },
    ]);
    expect(toWhatsAppTemplate({ name: 'p', language: 'es', status: 'PAUSED', category: '', components: [body('x')] })).toBeNull();
  });
});

describe("Meta's send errors in words", () => {
  it('template and delivery codes become their explanation (400), whatever the HTTP status Meta used', () => {
    for (const code of [132000, 132001, 132005, 132007, 132012, 132015, 132016, 131026, 131051]) {
      const mapped = graphFailure(new GraphError(code === 132001 ? 'not_found' : 'bad_request', `(#${code}) Meta title`, code));
      expect(mapped).toBeInstanceOf(ValidationError);
      expect(mapped.message).toBe(META_ERROR_WORDS[code]);
    }
    expect(graphFailure(new GraphError('bad_request', 'Re-engagement message', 131047)).message).toMatch(/24 hours/);
  });

  it('other refusals keep Meta\'s text; a rate limit stays a 429', () => {
    expect(graphFailure(new GraphError('bad_request', '(#100) Invalid parameter', 100)).message).toBe('(#100) Invalid parameter');
    expect(graphFailure(new GraphError('rate_limit', 'Too many messages', 130429))).toBeInstanceOf(TooManyRequestsError);
  });
});

describe('HttpGraphClient: templates and business-scoped user ids', () => {
  let fake: FakeWhatsApp;
  let client: HttpGraphClient;
  const credentials = { bearerToken: 'EAAG-good-token', businessId: '102290129340398', phoneId: '106540352242922' };

  beforeAll(async () => {
    fake = await startFakeWhatsApp();
    client = new HttpGraphClient({ baseUrl: fake.graphUrl, timeoutMs: 2000 });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('recognises a BSUID (and a parent BSUID) apart from phone numbers', () => {
    expect(isBsuid('US.13491208655302741918')).toBe(true);
    expect(isBsuid('ES.ENT.a1b2c3')).toBe(true);
    expect(isBsuid('34612345678')).toBe(false);
    expect(isBsuid('+34612345678')).toBe(false);
    expect(recipientFields('US.13491208655302741918')).toEqual({ recipient: 'US.13491208655302741918' });
    expect(recipientFields('+34612345678')).toEqual({ to: '34612345678' });
  });

  it('a text to a BSUID goes in `recipient`, to a phone in `to`', async () => {
    await client.sendText(credentials, 'ES.40123456789012345678', 'Hola');
    await client.sendText(credentials, '+34612345678', 'Hola');

    expect(fake.sent.map((s) => [s.status, s.payload.recipient, s.payload.to])).toEqual([
      [200, 'ES.40123456789012345678', undefined],
      [200, undefined, '34612345678'],
    ]);
  });

  it('lists every template of the business account across pages', async () => {
    fake.seedTemplates(
      credentials.businessId,
      Array.from({ length: 205 }, (_, i) => ({ name: `t${i}`, language: 'es', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'x' }] })),
    );

    const templates = await client.listTemplates(credentials);

    expect(templates).toHaveLength(205);
    expect(templates[204]).toEqual({ name: 't204', language: 'es', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'x' }] });
  });

  it('sends a template with its body parameters; named placeholders carry parameter_name', async () => {
    fake.seedTemplates(credentials.businessId, [{ name: 'pedido', language: 'es', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hola {{nombre}}, pedido {{numero}}' }] }], credentials.phoneId);

    const { messageId } = await client.sendTemplate(credentials, 'US.13491208655302741918', { name: 'pedido', language: 'es', parameters: ['Ana', '42'], names: ['nombre', 'numero'] });

    expect(messageId).toMatch(/^wamid\./);
    expect(fake.sent[0]!.payload).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      recipient: 'US.13491208655302741918',
      type: 'template',
      template: {
        name: 'pedido',
        language: { code: 'es' },
        components: [{ type: 'body', parameters: [{ type: 'text', parameter_name: 'nombre', text: 'Ana' }, { type: 'text', parameter_name: 'numero', text: '42' }] }],
      },
    });
  });

  it("Meta's template errors come back with their codes", async () => {
    const unknown = await client.sendTemplate(credentials, '34612345678', { name: 'nope', language: 'es', parameters: [] }).then(() => undefined, (e: unknown) => e as GraphError);
    const mismatch = await client.sendTemplate(credentials, '34612345678', { name: 'recordatorio_cita', language: 'es', parameters: ['x'] }).then(() => undefined, (e: unknown) => e as GraphError);

    expect(unknown).toMatchObject({ code: 132001 });
    expect(mismatch).toMatchObject({ code: 132000, kind: 'bad_request' });
    expect(mismatch?.message).toMatch(/number of localizable_params \(1\) does not match the expected number of params \(2\)/);
  });
});
