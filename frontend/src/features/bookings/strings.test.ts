import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// i18n/index.ts sets <html lang>: the unit project runs in Node without a DOM.
vi.hoisted(() => {
  (globalThis as { document?: unknown }).document ??= { documentElement: {} };
});

import { bookingMessages } from '@agentdesk/functions/contract';
import i18n from '../../i18n';
import { keyPaths as keys } from '../../i18n/keyPaths';
import en from './i18n/en.json';
import es from './i18n/es.json';
import { translateBookingText } from './messages';

describe('bookings contract texts', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('es');
  });
  afterAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('keys every bookingMessages text: fixed ones with their exact English, the ones with a value as templates', () => {
    const fixed = Object.entries(bookingMessages).filter(([, v]) => typeof v === 'string');
    const withValue = Object.entries(bookingMessages).filter(([, v]) => typeof v === 'function');
    expect(Object.keys(en.messages).sort()).toEqual(fixed.map(([k]) => k).sort());
    expect(Object.keys(en.templates).sort()).toEqual(withValue.map(([k]) => k).sort());
    for (const [key, text] of fixed) expect(en.messages[key as keyof typeof en.messages], key).toBe(text);
    for (const [key, fn] of withValue) expect(en.templates[key as keyof typeof en.templates], key).toBe((fn as (v: string) => string)('{{0}}'));
  });

  it('has every key in Spanish, each one translated', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
    for (const key of Object.keys(es.messages) as (keyof typeof es.messages)[]) expect(es.messages[key], key).not.toBe(en.messages[key]);
    for (const key of Object.keys(es.templates) as (keyof typeof es.templates)[]) expect(es.templates[key], key).not.toBe(en.templates[key]);
  });

  it('translates the server texts, filling in their values, and leaves unknown texts to the app', async () => {
    expect(translateBookingText(bookingMessages.slotTaken)).toBe('Esta hora ya no está libre: elige otra');
    expect(translateBookingText(bookingMessages.staffHasBookings(3))).toBe('Este profesional tiene 3 cita(s) próxima(s): muévelas o cancélalas antes de eliminarlo');
    expect(translateBookingText(bookingMessages.tooSoon(120))).toBe('Las citas necesitan al menos 120 minutos de antelación');
    expect(translateBookingText('Something else')).toBe('Something else');
    await i18n.changeLanguage('en');
    expect(translateBookingText(bookingMessages.staffHasBookings(3))).toBe(bookingMessages.staffHasBookings(3));
    expect(translateBookingText(bookingMessages.slotTaken)).toBe(bookingMessages.slotTaken);
    await i18n.changeLanguage('es');
  });
});
