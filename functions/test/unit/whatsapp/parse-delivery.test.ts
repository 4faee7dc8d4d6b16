/**
 * Reading Meta's webhook deliveries (domain/whatsapp/parse-delivery.ts parseDelivery): message types,
 * customers with and without a phone number, statuses with Meta's error text, unknown fields and
 * malformed parts skipped. Payloads built with the test support's Meta-shaped builders.
 */
import { describe, expect, it } from 'vitest';
import { MAX_INBOUND_BODY, parseDelivery, phoneFromWaId } from '../../../src/domain/whatsapp/parse-delivery.js';
import {
  contactsMessage,
  interactiveReplyMessage,
  locationMessage,
  mediaMessage,
  metaDelivery,
  metaJson,
  statusUpdate,
  templateButtonMessage,
  textMessage,
  type WaBusiness,
  type WaCustomer,
} from '../../support/whatsapp.js';

const business: WaBusiness = { phoneId: '106540352242922', displayPhoneNumber: '+1 415 555 0100', businessId: '102290129340398' };
const ana: WaCustomer = { waId: '14155550123', name: 'Ana Pérez', userId: 'US.13491208655302741918' };
const at = new Date('2026-03-01T10:00:00Z');
const RECEIVED = '2026-03-01T10:00:05.000Z';

describe('parseDelivery: messages', () => {
  it('a text message: wamid, the customer (wa_id, phone, profile name), Meta’s time, type chat', () => {
    const msg = textMessage(ana, 'Hola 👋 ¿abren el sábado?', { at });

    const [change] = parseDelivery(metaDelivery(business, { messages: [msg] }), RECEIVED)!;

    expect(change).toEqual({
      phoneNumberId: business.phoneId,
      displayPhoneNumber: '14155550100',
      statuses: [],
      messages: [
        {
          wamid: msg.message.id,
          customer: { waId: '14155550123', phone: '+14155550123', name: 'Ana Pérez' },
          timestamp: '2026-03-01T10:00:00.000Z',
          type: 'chat',
          body: 'Hola 👋 ¿abren el sábado?',
        },
      ],
    });
  });

  it('media: image/video/document/sticker keep their metadata; an audio voice note is ptt', () => {
    const image = mediaMessage(ana, 'image', { caption: 'the part', mediaId: 'M1', mimeType: 'image/jpeg', sha256: 'abc' });
    const doc = mediaMessage(ana, 'document', { filename: 'invoice.pdf', caption: 'my invoice' });
    const voice = mediaMessage(ana, 'audio', { voice: true });
    const audio = mediaMessage(ana, 'audio', { voice: false });
    const sticker = mediaMessage(ana, 'sticker');
    const video = mediaMessage(ana, 'video');

    const [change] = parseDelivery(metaDelivery(business, { messages: [image, doc, voice, audio, sticker, video] }), RECEIVED)!;

    expect(change!.messages.map((m) => [m.type, m.body])).toEqual([
      ['image', 'the part'],
      ['document', 'my invoice'],
      ['ptt', ''],
      ['audio', ''],
      ['sticker', ''],
      ['video', ''],
    ]);
    expect(change!.messages[0]!.media).toEqual({ id: 'M1', mimeType: 'image/jpeg', sha256: 'abc', caption: 'the part' });
    expect(change!.messages[1]!.media).toMatchObject({ filename: 'invoice.pdf', mimeType: 'application/pdf' });
  });

  it('a customer with no phone number (username only: user_id, no wa_id) is keyed on the user id, with no phone', () => {
    const body = metaJson({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'waba',
          changes: [
            {
              field: 'messages',
              value: {
                metadata: { phone_number_id: '1', display_phone_number: '14155550100' },
                contacts: [{ profile: { name: 'kim.k' }, user_id: 'US.999' }],
                messages: [{ from_user_id: 'US.999', id: 'wamid.X', timestamp: '1772359200', type: 'text', text: { body: 'hi' } }],
              },
            },
          ],
        },
      ],
    });

    const [change] = parseDelivery(body, RECEIVED)!;

    expect(change!.messages[0]!.customer).toEqual({ waId: 'US.999', phone: '', name: 'kim.k' });
  });

  it('contacts are matched to messages by wa_id whatever Meta’s order; other types are kept with their kind; unknown fields ignored', () => {
    const ben: WaCustomer = { waId: '5215512345678', name: 'Ben' };
    const m1 = textMessage(ana, 'one');
    const m2 = textMessage(ben, 'two');
    const delivery = JSON.parse(metaDelivery(business, { messages: [m1, m2], contactsOrder: 'reverse' })) as {
      entry: { changes: { value: Record<string, unknown> & { messages: Record<string, unknown>[] } }[] }[];
    };
    const value = delivery.entry[0]!.changes[0]!.value;
    value.messages.push({ from: ben.waId, id: 'wamid.loc', timestamp: '1772359200', type: 'location', location: { latitude: 19.4, longitude: -99.1, name: 'Oficina' } });
    value.messages.push({ from: ben.waId, id: 'wamid.unsupported', timestamp: '1772359200', type: 'unsupported', errors: [{ code: 131051 }] });
    value.brandNewField = { anything: true };

    const [change] = parseDelivery(JSON.stringify(delivery), RECEIVED)!;

    expect(change!.messages.map((m) => [m.customer.name, m.type, m.body])).toEqual([
      ['Ana Pérez', 'chat', 'one'],
      ['Ben', 'chat', 'two'],
      ['Ben', 'location', 'Oficina · 19.4,-99.1'],
      ['Ben', 'unsupported', ''],
    ]);
  });

  it('malformed parts are skipped; a body that is not JSON gives null', () => {
    const body = JSON.stringify({ entry: [{ changes: [{ value: { messages: [{ type: 'text' }, 'x', null], statuses: [{ id: 'w', status: 'weird' }] } }, null] }, 3] });

    const changes = parseDelivery(body, RECEIVED);

    expect(changes).toEqual([{ phoneNumberId: '', displayPhoneNumber: '', messages: [], statuses: [] }]);
    expect(parseDelivery('not json', RECEIVED)).toBeNull();
  });
});

describe('parseDelivery: statuses', () => {
  it('sent/delivered/read as they are; failed with Meta’s title and details', () => {
    const statuses = [
      statusUpdate('wamid.A', 'sent', ana),
      statusUpdate('wamid.A', 'read', ana),
      statusUpdate('wamid.B', 'failed', ana, { errors: [{ code: 131026, title: 'Message undeliverable', details: 'The recipient is not on WhatsApp.' }] }),
    ];

    const [change] = parseDelivery(metaDelivery(business, { statuses }), RECEIVED)!;

    expect(change!.statuses).toEqual([
      { wamid: 'wamid.A', status: 'sent' },
      { wamid: 'wamid.A', status: 'read' },
      { wamid: 'wamid.B', status: 'failed', error: 'Message undeliverable: The recipient is not on WhatsApp.' },
    ]);
  });

  it('keeps our reference (biz_opaque_callback_data) echoed by Meta', () => {
    const [change] = parseDelivery(metaDelivery(business, { statuses: [statusUpdate('wamid.C', 'delivered', ana, { reference: 'CONV-MSG' })] }), RECEIVED)!;

    expect(change!.statuses).toEqual([{ wamid: 'wamid.C', status: 'delivered', reference: 'CONV-MSG' }]);
  });
});

describe('parseDelivery: what a customer shares besides text (issue 31)', () => {
  const only = (msg: Parameters<typeof metaDelivery>[1]['messages']) => parseDelivery(metaDelivery(business, { messages: msg }), RECEIVED)![0]!.messages[0]!;

  it('media keep every field Meta sends: id, mime_type, sha256, caption, filename; a voice note is ptt', () => {
    const doc = only([mediaMessage(ana, 'document', { mediaId: '1013859600285441', mimeType: 'application/pdf', sha256: 'aGVsbG8=', filename: 'receta-Pérez.pdf', caption: 'La receta' })]);
    expect(doc).toMatchObject({ type: 'document', body: 'La receta', media: { id: '1013859600285441', mimeType: 'application/pdf', sha256: 'aGVsbG8=', filename: 'receta-Pérez.pdf', caption: 'La receta' } });
    const voice = only([mediaMessage(ana, 'audio', { mediaId: '77', voice: true, mimeType: 'audio/ogg; codecs=opus' })]);
    expect(voice).toMatchObject({ type: 'ptt', body: '', media: { id: '77', mimeType: 'audio/ogg; codecs=opus' } });
  });

  it('a location is kept structured, coordinates as numbers whether Meta sent numbers or strings', () => {
    const place = only([locationMessage(ana, { latitude: 40.4168, longitude: -3.7038, name: 'Clínica Sonrisa', address: 'Calle Mayor 1, Madrid', url: 'https://maps.google.com/?q=40.4168,-3.7038' })]);
    expect(place).toMatchObject({
      type: 'location',
      body: 'Clínica Sonrisa · Calle Mayor 1, Madrid · 40.4168,-3.7038',
      location: { latitude: 40.4168, longitude: -3.7038, name: 'Clínica Sonrisa', address: 'Calle Mayor 1, Madrid', url: 'https://maps.google.com/?q=40.4168,-3.7038' },
    });
    const pin = only([locationMessage(ana, { latitude: '41.3874', longitude: '2.1686' })]);
    expect(pin.location).toEqual({ latitude: 41.3874, longitude: 2.1686 });
  });

  it('a location with coordinates out of range or missing keeps its text but no structured location', () => {
    expect(only([locationMessage(ana, { latitude: 140, longitude: 2 })]).location).toBeUndefined();
    expect(only([locationMessage(ana, { latitude: 'norte', longitude: '2' })]).location).toBeUndefined();
  });

  it('contact cards: formatted name and phones (a phone without + kept as written)', () => {
    const cards = only([contactsMessage(ana, [{ name: 'Lucía Gómez', phones: ['+34 600 11 22 33', '600112233'] }, { name: 'Dra. Pérez', phones: [] }])]);
    expect(cards).toMatchObject({
      type: 'contacts',
      body: 'Lucía Gómez +34 600 11 22 33 600112233; Dra. Pérez',
      contactCards: [
        { name: 'Lucía Gómez', phones: ['+34 600 11 22 33', '600112233'] },
        { name: 'Dra. Pérez', phones: [] },
      ],
    });
  });

  it('a tapped reply button or list row is the answer: body = its title, interactiveReply {id, title}', () => {
    const button = only([interactiveReplyMessage(ana, 'button_reply', { id: 'slot-1', title: 'Martes 10:00' })]);
    expect(button).toMatchObject({ type: 'chat', body: 'Martes 10:00', interactiveReply: { id: 'slot-1', title: 'Martes 10:00' } });
    const row = only([interactiveReplyMessage(ana, 'list_reply', { id: 'ortodoncia', title: 'Ortodoncia invisible', description: 'Primera visita gratis' })]);
    expect(row).toMatchObject({ type: 'chat', body: 'Ortodoncia invisible', interactiveReply: { id: 'ortodoncia', title: 'Ortodoncia invisible' } });
  });

  it("a template's quick-reply button: body = its text, interactiveReply {id: payload, title: text}", () => {
    const tapped = only([templateButtonMessage(ana, { payload: 'CONFIRMAR_CITA', text: 'Sí, confirmo' })]);
    expect(tapped).toMatchObject({ type: 'chat', body: 'Sí, confirmo', interactiveReply: { id: 'CONFIRMAR_CITA', title: 'Sí, confirmo' } });
  });
});

describe('parseDelivery: a forged delivery cannot make a message too big to store (issue 31)', () => {
  it('a 100,000-character caption and file name, a huge media id and an unknown type of 5,000 characters are cut, so the message item stays far under 400 KB', () => {
    const huge = 'é'.repeat(100_000);
    const doc = mediaMessage(ana, 'document', { caption: huge, filename: `${huge}.pdf`, mediaId: '1'.repeat(100_000), mimeType: 'x'.repeat(100_000), sha256: 's'.repeat(100_000) });
    const odd = { customer: ana, message: { ...textMessage(ana, '').message, type: 't'.repeat(5_000) } };

    const [change] = parseDelivery(metaDelivery(business, { messages: [doc, odd] }), RECEIVED)!;
    const [document, unknown] = change!.messages;

    expect(document!.media!.caption).toBe(huge.slice(0, MAX_INBOUND_BODY));
    expect(document!.body).toBe(huge.slice(0, MAX_INBOUND_BODY));
    expect(document!.media!.filename!.length).toBeLessThanOrEqual(500);
    for (const field of ['id', 'mimeType', 'sha256'] as const) expect(document!.media![field]!.length, field).toBeLessThanOrEqual(256);
    expect(unknown!.type.length).toBeLessThanOrEqual(64);
    expect(Buffer.byteLength(JSON.stringify(change))).toBeLessThan(100_000);
  });
});

describe('helpers', () => {
  it('phoneFromWaId: digits of a phone number → E.164; anything else → no phone', () => {
    expect(phoneFromWaId('14155550123')).toBe('+14155550123');
    expect(phoneFromWaId('US.13491208655302741918')).toBe('');
    expect(phoneFromWaId('0123')).toBe('');
  });
});
