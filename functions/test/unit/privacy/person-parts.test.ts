/**
 * Issue 33: the logic of the calls, bookings and contact parts that is not DynamoDB's (the
 * integration test privacy-erase-calls.test.ts runs them on the local stack): which recordings a
 * call names, what a call and a booking look like in the export, and the contact step's idempotence.
 */
import { describe, expect, it } from 'vitest';
import { BOOKING_CSV_HEADER, bookingCsvRow, ERASED_CUSTOMER } from '../../../src/adapters/dynamo/privacy/bookings.js';
import { exportedCall, exportedTurn, recordingSidsOf } from '../../../src/adapters/dynamo/privacy/calls.js';
import { ContactPart } from '../../../src/adapters/dynamo/privacy/contact.js';
import type { Booking } from '../../../src/contract/bookings.js';
import type { Contact } from '../../../src/contract/contacts.js';
import type { OptOutState } from '../../../src/contract/privacy.js';
import { NotFoundError } from '../../../src/domain/errors.js';
import type { ExportWriter, PersonKey } from '../../../src/domain/privacy/ports.js';
import type { StoredCall } from '../../../src/domain/voice/ports.js';
import { transcriptLines } from '../../../src/domain/privacy/transcript.js';

const RE1 = `RE${'a'.repeat(32)}`;
const RE2 = `RE${'b'.repeat(32)}`;

describe('calls part: recordings and export', () => {
  it('names the recording sid and the one in its media URL, once each; none without a recording', () => {
    expect(recordingSidsOf({ recording: null })).toEqual([]);
    expect(recordingSidsOf({ recording: { sid: RE1, url: `https://api.twilio.com/2010-04-01/Accounts/AC1/Recordings/${RE1}`, durationSec: 3 } })).toEqual([RE1]);
    expect(recordingSidsOf({ recording: { sid: RE1, url: `https://api.twilio.com/2010-04-01/Accounts/AC1/Recordings/${RE2}.mp3`, durationSec: 3 } }).sort()).toEqual([RE1, RE2]);
    // Something that is not a recording sid is never sent to Twilio.
    expect(recordingSidsOf({ recording: { sid: '../../Calls/CA1', url: 'not a url', durationSec: 3 } })).toEqual([]);
  });

  it('exports the call (time, duration, direction, summary, turns) and a Spanish transcript in the account zone', () => {
    const call = {
      id: '01JDEXAMPLE0000000000000AB',
      createdAt: '2026-11-27T09:05:00.000Z',
      endedAt: '2026-11-27T09:06:23.000Z',
      duration: 83_000,
      status: 'completed',
      phoneNumber: '+34612345678',
      internalNumber: '+34910000000',
      agent: { _id: 'a', name: 'Recepción' },
      voiceSettings: { name: 'Recepción', description: '', language: 'es-ES' },
      escalated: false,
      summary: { text: 'Quiere cita' },
      messages: [
        { role: 'agent', content: 'Hola, ¿en qué puedo ayudarle?', at: '2026-11-27T09:05:01.000Z', confidence: null },
        { role: 'user', content: 'Soy Begoña, quiero una limpieza', at: '2026-11-27T09:05:09.000Z', confidence: 0.9 },
      ],
      recording: { sid: RE1, url: '', durationSec: 80 },
      settings: { secret: 'not exported' },
    } as unknown as StoredCall;
    const exported = exportedCall(call);
    expect(exported).toMatchObject({ id: call.id, time: call.createdAt, durationSeconds: 83, direction: 'inbound', from: '+34612345678', agent: 'Recepción', summary: { text: 'Quiere cita' } });
    expect(exported.transcript).toEqual([
      { role: 'agent', text: 'Hola, ¿en qué puedo ayudarle?', at: '2026-11-27T09:05:01.000Z' },
      { role: 'caller', text: 'Soy Begoña, quiero una limpieza', at: '2026-11-27T09:05:09.000Z' },
    ]);
    expect(JSON.stringify(exported)).not.toContain('not exported');
    expect(transcriptLines(call.messages.map(exportedTurn), 'es', 'Europe/Madrid')).toBe(
      '2026-11-27 10:05 Agente: Hola, ¿en qué puedo ayudarle?\n2026-11-27 10:05 Cliente: Soy Begoña, quiero una limpieza',
    );
  });
});

describe('bookings part: export rows and the erased customer', () => {
  it('one CSV row per booking, in the header order, price in units', () => {
    const b = {
      _id: 'B1',
      start: '2026-12-01T10:00:00.000Z',
      end: '2026-12-01T10:30:00.000Z',
      timeZone: 'Europe/Madrid',
      serviceName: 'Limpieza dental',
      staffName: 'Dra. García',
      status: 'confirmed',
      channel: 'voice',
      customer: { name: 'Begoña Muñoz', phone: '+34655443322', contactId: null },
      notes: 'Alergia; látex',
      priceCents: 4500,
      currency: 'EUR',
      createdAt: '2026-11-20T10:00:00.000Z',
      cancelledAt: null,
    } as unknown as Booking;
    const row = bookingCsvRow(b);
    expect(row).toHaveLength(BOOKING_CSV_HEADER.length);
    expect(Object.fromEntries(BOOKING_CSV_HEADER.map((h, i) => [h, row[i]]))).toMatchObject({ customerName: 'Begoña Muñoz', notes: 'Alergia; látex', price: 45, cancelledAt: null });
  });

  it('an erased customer keeps nothing that names them', () => {
    expect(ERASED_CUSTOMER).toEqual({ name: '', phone: '', contactId: null, erased: true });
  });
});

describe('contact part', () => {
  const person: PersonKey = { accountId: 'acc', contactId: 'c1', e164: '+34612345678', waId: '34612345678' };
  function fakes() {
    const contacts = new Map<string, Contact>([['c1', { _id: 'c1', name: 'Begoña Muñoz', phoneNumber: '+34612345678', customFields: { alergia: 'látex' }, tags: ['vip'] } as unknown as Contact]]);
    const optOuts = new Map<string, OptOutState>([['+34612345678', { at: '2026-11-01T00:00:00.000Z', keyword: 'BAJA' }]]);
    const removed: string[] = [];
    const part = new ContactPart({
      contacts: {
        async get(_a, id) {
          const c = contacts.get(id);
          if (!c) throw new NotFoundError('Contact not found');
          return c;
        },
        async remove(_a, id) {
          if (!contacts.delete(id)) throw new NotFoundError('Contact not found');
          removed.push(id);
        },
      },
      optOuts: { get: async (_a, e164) => optOuts.get(e164) ?? null, clear: async (_a, e164) => void optOuts.delete(e164) },
    });
    return { part, contacts, optOuts, removed };
  }

  it('exports the contact with its custom fields and tags, and the opt-out', async () => {
    const { part } = fakes();
    const files = new Map<string, unknown>();
    const out = { json: async (p: string, v: unknown) => void files.set(p, v) } as unknown as ExportWriter;
    expect(await part.export(person, out)).toEqual({ counts: { contacts: 1 }, done: true });
    expect(files.get('contact/contact.json')).toMatchObject({ customFields: { alergia: 'látex' }, tags: ['vip'] });
    expect(files.get('contact/opt-out.json')).toMatchObject({ phoneNumber: '+34612345678', keyword: 'BAJA' });
  });

  it('deletes the contact through the contacts domain and the opt-out; run again it counts nothing and fails nothing', async () => {
    const { part, contacts, optOuts, removed } = fakes();
    expect(await part.count(person)).toEqual({ contacts: 1 });
    expect(await part.erase(person)).toEqual({ counts: { contacts: 1 }, done: true });
    expect(contacts.size).toBe(0);
    expect(optOuts.size).toBe(0);
    expect(await part.erase(person)).toEqual({ counts: { contacts: 0 }, done: true });
    expect(removed).toEqual(['c1']);
    expect(await part.count(person)).toEqual({ contacts: 0 });
  });
});
