import { describe, expect, it } from 'vitest';
import { SENTIMENTS, URGENCIES } from '../../../src/contract/voice.js';
import { catalogue, enumWords, formatDateTime, languageOf } from '../../../src/domain/i18n/messages.js';
import { handoffEmail, summaryEmail, summaryWhatsAppText } from '../../../src/domain/voice/delivery.js';
import { storedCall, validSummary } from '../voice-summary/fakes.js';

// Intl separates some parts with narrow/non-breaking spaces: compare with plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('server message catalogue', () => {
  it('reads Spanish for es and English for anything else', () => {
    const texts = catalogue({ hello: 'Hello' }, { hello: 'Hola' });
    expect(texts('es').hello).toBe('Hola');
    expect(texts('en').hello).toBe('Hello');
    expect(texts(undefined).hello).toBe('Hello');
    expect(languageOf('fr')).toBe('en');
  });

  it('writes a moment in the reader zone and language, naming UTC when that is the zone', () => {
    const at = '2026-11-26T09:15:00.000Z';
    expect(formatDateTime(at, 'es', 'Europe/Madrid')).toBe('26 nov 2026, 10:15');
    expect(plain(formatDateTime(at, 'en', 'America/Mexico_City'))).toBe('Nov 26, 2026, 3:15 AM');
    expect(plain(formatDateTime(at, 'en', undefined))).toBe('Nov 26, 2026, 9:15 AM UTC');
    expect(formatDateTime(at, 'es', 'Not/AZone')).toBe('26 nov 2026, 9:15 UTC');
    expect(formatDateTime('not a date', 'es', 'UTC')).toBe('not a date');
  });

  it('has a word for every sentiment and urgency in both languages', () => {
    for (const language of ['en', 'es'] as const) {
      for (const s of SENTIMENTS) expect(enumWords(language).sentiment[s]).toBeTruthy();
      for (const u of URGENCIES) expect(enumWords(language).urgency[u]).toBeTruthy();
    }
    expect(enumWords('es').urgency.critical).toBe('crítica');
  });
});

describe('call summary texts in the owner language', () => {
  const call = storedCall({ createdAt: '2026-11-26T09:15:00.000Z', summaryStatus: 'completed', summary: { ...validSummary, sentiment: 'positive', urgency: 'critical' } });
  const summary = call.summary!;

  it('Spanish: enum words, labels and the time in Europe/Madrid', () => {
    const mail = summaryEmail(call, summary, 'es', 'https://app.example.com', 'Europe/Madrid');
    expect(mail.text).toContain('el 26 nov 2026, 10:15,');
    expect(mail.text).toContain('Sentimiento: positivo · Urgencia: crítica');
    expect(mail.text).not.toMatch(/positive|critical|UTC/);
    expect(summaryWhatsAppText(call, summary, 'es', 'https://app.example.com', 'Europe/Madrid')).toContain('Urgencia: crítica');
    expect(handoffEmail(call, summary, 'es', 'https://app.example.com').text).toContain('Urgencia: crítica');
  });

  it('English: English words and a UTC time when no zone is set', () => {
    const mail = summaryEmail(call, summary, 'en', 'https://app.example.com');
    expect(plain(mail.text)).toContain('on Nov 26, 2026, 9:15 AM UTC,');
    expect(mail.text).toContain('Sentiment: positive · Urgency: critical');
  });
});
