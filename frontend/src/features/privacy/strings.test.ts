import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// i18n/index.ts sets <html lang>: the unit project runs in Node without a DOM.
vi.hoisted(() => {
  (globalThis as { document?: unknown }).document ??= { documentElement: {} };
});

import { DEFAULT_RETENTION, ERASE_CONFIRMATION, ACCOUNT_DELETE_CONFIRMATION, RETENTION_DAY_CHOICES, RETENTION_KINDS, emptyPersonDataCounts, type PrivacySettings } from '@agentdesk/functions/contract';
import i18n from '../../i18n';
import { keyPaths } from '../../i18n/keyPaths';
import en from '../../shared/i18n/privacy.en.json';
import es from '../../shared/i18n/privacy.es.json';
import { countsList } from '../../shared/privacy/strings';
import { optOutOf } from '../../shared/privacy/optOut';
import { addWord, settingsValid, wordProblem } from './settingsForm';

const t = i18n.t.bind(i18n) as unknown as (key: string, values?: Record<string, unknown>) => string;

describe('privacy strings (issue 33)', () => {
  it('has every English key in Spanish', () => {
    expect(keyPaths(es).sort()).toEqual(keyPaths(en).sort());
  });

  it('names every retention choice and kind', () => {
    for (const days of RETENTION_DAY_CHOICES) expect(es.privacy.periods).toHaveProperty(String(days));
    for (const kind of RETENTION_KINDS) {
      expect(es.privacy.retention.kinds).toHaveProperty(kind);
      expect(es.privacy.retention.explain).toHaveProperty(kind);
    }
  });

  it('asks for the confirmation words the server accepts', () => {
    expect(en.privacy.eraseDialog.word).toBe(ERASE_CONFIRMATION.en);
    expect(es.privacy.eraseDialog.word).toBe(ERASE_CONFIRMATION.es);
    expect(en.privacy.account.word).toBe(ACCOUNT_DELETE_CONFIRMATION.en);
    expect(es.privacy.account.word).toBe(ACCOUNT_DELETE_CONFIRMATION.es);
  });
});

describe('in Spanish', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('es');
  });
  afterAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('says the counts as a list with ICU plurals, zeros left out', () => {
    const counts = { ...emptyPersonDataCounts(), messages: 12000, calls: 20, bookings: 1 };
    expect(countsList(t, 'es', counts)).toBe('12.000 mensajes, 20 llamadas y 1 cita');
    expect(countsList(t, 'es', emptyPersonDataCounts())).toBe('nada');
    // A figure a later server adds is left out, not shown as a key.
    expect(countsList(t, 'es', { recordings: 1, somethingNew: 4 })).toBe('1 grabación');
  });

  it('explains the retention in plain words', () => {
    expect(t('privacy.retention.explain.messages', { period: t(`privacy.periods.${DEFAULT_RETENTION.messages}`) })).toBe('Los mensajes de WhatsApp de más de 24 meses se borran solos.');
  });
});

describe('the opt-out words and the contact view', () => {
  const settings: PrivacySettings = {
    retention: DEFAULT_RETENTION,
    notices: { ai: true, recording: true, aiText: { en: 'AI', es: 'IA' }, recordingText: { en: 'Rec', es: 'Grab' } },
    optOut: { stopKeywords: ['BAJA', 'STOP'], startKeywords: ['ALTA'] },
  };

  it('refuses a word already in a list, compared as the server folds it', () => {
    expect(wordProblem(settings, 'startKeywords', ' baja! ')).toBe('duplicate');
    expect(wordProblem(settings, 'stopKeywords', 'Bájame')).toBeNull();
    expect(wordProblem(settings, 'stopKeywords', 'x'.repeat(31))).toBe('tooLong');
    expect(addWord(settings, 'stopKeywords', ' Bájame ').optOut.stopKeywords).toEqual(['BAJA', 'STOP', 'Bájame']);
    expect(settingsValid(settings)).toBe(true);
    expect(settingsValid({ ...settings, notices: { ...settings.notices, aiText: { en: ' ', es: 'IA' } } })).toBe(false);
  });

  it('reads a contact opt-out defensively', () => {
    expect(optOutOf({ optOut: { at: '2026-11-28T10:00:00Z', keyword: 'BAJA' } })).toEqual({ at: '2026-11-28T10:00:00Z', keyword: 'BAJA' });
    expect(optOutOf({ optOut: null })).toBeNull();
    expect(optOutOf({})).toBeNull();
    expect(optOutOf({ optOut: 'yes' })).toBeNull();
  });
});
