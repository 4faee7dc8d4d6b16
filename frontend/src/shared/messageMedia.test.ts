import { describe, expect, it, vi } from 'vitest';

// i18n/index.ts sets <html lang>: the unit project runs in Node without a DOM.
vi.hoisted(() => {
  (globalThis as { document?: unknown }).document ??= { documentElement: {} };
});

import { MEDIA_FAILURE_REASONS } from '@agentdesk/functions/contract';
import i18n from '../i18n';
import { keyPaths } from '../i18n/keyPaths';
import { failureText, formatDuration, kindPreview, mapsUrl, messageMediaStrings, shownKind, startsCollapsed, telLink } from './messageMedia';
import { setDisplayCountry } from './displayCountry';

describe('message media (issue 31)', () => {
  it('has every English key in Spanish too', () => {
    expect(keyPaths(messageMediaStrings.es).sort()).toEqual(keyPaths(messageMediaStrings.en).sort());
  });

  it('says every failure reason as a sentence in both languages', async () => {
    for (const language of ['en', 'es']) {
      await i18n.changeLanguage(language);
      const sentences = MEDIA_FAILURE_REASONS.map((r) => failureText(r));
      expect(new Set(sentences).size).toBe(MEDIA_FAILURE_REASONS.length);
      for (const s of sentences) expect(s).toMatch(/[.]$/);
    }
    await i18n.changeLanguage('es');
    expect(failureText('transcription_failed')).toBe('No se pudo transcribir: el agente pidió al cliente que lo escriba.');
    expect(failureText('something_new')).toBe(failureText(undefined));
    await i18n.changeLanguage('en');
    expect(failureText('transcription_failed')).toBe('Could not be transcribed: the agent asked the customer to write it.');
  });

  it('names a voice note "🎤 Nota de voz" on the board card; text and options have no word', async () => {
    await i18n.changeLanguage('es');
    expect(kindPreview('ptt')).toBe('🎤 Nota de voz');
    expect(kindPreview('location')).toBe('📍 Ubicación');
    expect(kindPreview('chat')).toBe('');
    expect(kindPreview('interactive')).toBe('');
    await i18n.changeLanguage('en');
    expect(kindPreview('image')).toBe('📷 Photo');
    expect(shownKind('template')).toBeNull();
  });

  it('writes durations as m:ss, links a place to Google Maps and a shared number to tel:', () => {
    expect([formatDuration(7), formatDuration(205.4), formatDuration(3723), formatDuration(undefined), formatDuration(-1)]).toEqual(['0:07', '3:25', '1:02:03', '', '']);
    expect(mapsUrl({ latitude: 40.4168, longitude: -3.7038 })).toBe('https://www.google.com/maps/search/?api=1&query=40.4168,-3.7038');
    setDisplayCountry('ES');
    expect(telLink('612 34 56 78')).toBe('tel:+34612345678');
    expect(telLink('+52 55 1234 5678')).toBe('tel:+525512345678');
    expect(telLink('n/a')).toBeNull();
    expect(startsCollapsed('a'.repeat(280))).toBe(false);
    expect(startsCollapsed('a'.repeat(281))).toBe(true);
  });
});
