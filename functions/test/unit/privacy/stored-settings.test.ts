/**
 * The stored privacy settings are read by hand on the writers' hot path (domain/privacy/settings.ts:
 * the voice webhook must not carry the zod schema): the reader accepts exactly what the PUT's schema
 * accepts, and returns the same (trimmed) object.
 */
import { describe, expect, it } from 'vitest';
import { privacySettingsRequest } from '../../../src/contract/privacy.js';
import { defaultPrivacySettings, parseStoredPrivacySettings, readPrivacySettings } from '../../../src/domain/privacy/settings.js';

const valid = () => ({
  retention: { messages: 730, callTranscripts: 365, recordings: 30, media: 180 },
  notices: {
    ai: true,
    recording: false,
    aiText: { en: '  You talk to an AI of {business}. ', es: 'Hablas con una IA de {business}.' },
    recordingText: { en: 'Recorded.', es: 'Esta llamada se está grabando.' },
  },
  optOut: { stopKeywords: [' BAJA ', 'stop', 'Darme de baja'], startKeywords: ['ALTA', 'start'] },
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- mutations break the type on purpose
type Mutation = [string, (s: any) => void];
const mutations: Mutation[] = [
  ['valid as is', () => {}],
  ['extra top-level key', (s) => (s.extra = 1)],
  ['missing optOut', (s) => delete s.optOut],
  ['retention not a choice', (s) => (s.retention.media = 60)],
  ['retention as a string', (s) => (s.retention.messages = '730')],
  ['retention extra kind', (s) => (s.retention.other = 30)],
  ['retention missing kind', (s) => delete s.retention.recordings],
  ['retention null', (s) => (s.retention = null)],
  ['retention an array', (s) => (s.retention = [30, 30, 30, 30])],
  ['notice flag a string', (s) => (s.notices.ai = 'true')],
  ['notice flag missing', (s) => delete s.notices.recording],
  ['notice extra key', (s) => (s.notices.extra = true)],
  ['notice text blank', (s) => (s.notices.aiText.en = '   ')],
  ['notice text 300 after trim', (s) => (s.notices.aiText.es = ` ${'a'.repeat(300)} `)],
  ['notice text 301', (s) => (s.notices.aiText.es = 'a'.repeat(301))],
  ['notice text a number', (s) => (s.notices.recordingText.en = 5)],
  ['notice texts extra language', (s) => (s.notices.recordingText.fr = 'x')],
  ['notice texts missing language', (s) => delete s.notices.aiText.es],
  ['keywords empty', (s) => (s.optOut.stopKeywords = [])],
  ['keywords 20', (s) => (s.optOut.stopKeywords = Array.from({ length: 20 }, (_, i) => `W${i}`))],
  ['keywords 21', (s) => (s.optOut.stopKeywords = Array.from({ length: 21 }, (_, i) => `W${i}`))],
  ['keyword blank', (s) => (s.optOut.startKeywords = ['ALTA', ' '])],
  ['keyword 30 after trim', (s) => (s.optOut.startKeywords = [` ${'A'.repeat(30)} `])],
  ['keyword 31', (s) => (s.optOut.startKeywords = ['A'.repeat(31)])],
  ['keyword a number', (s) => (s.optOut.startKeywords = [1])],
  ['keywords a string', (s) => (s.optOut.startKeywords = 'ALTA')],
  ['keyword in both lists (folded)', (s) => (s.optOut.startKeywords = ['Stop!'])],
  ['keyword in both lists (accents)', (s) => ((s.optOut.stopKeywords = ['DARME DE BAJA']), (s.optOut.startKeywords = ['dárme de baja']))],
  ['optOut extra key', (s) => (s.optOut.other = [])],
  ['not an object', (s) => Object.setPrototypeOf(s, null)],
];

describe('parseStoredPrivacySettings reads what privacySettingsRequest reads', () => {
  it.each(mutations)('%s', (_name, mutate) => {
    const settings = valid();
    mutate(settings);
    const schema = privacySettingsRequest.safeParse(structuredClone(settings));
    const hand = parseStoredPrivacySettings(structuredClone(settings));
    expect(hand).toEqual(schema.success ? schema.data : null);
  });

  it.each([null, undefined, 'x', 3, [], [valid()]])('refuses %j like the schema', (value) => {
    expect(privacySettingsRequest.safeParse(value).success).toBe(false);
    expect(parseStoredPrivacySettings(value)).toBeNull();
  });

  it('returns the trimmed texts and keywords, and a valid object reads as itself', () => {
    const read = parseStoredPrivacySettings(valid())!;
    expect(read.notices.aiText.en).toBe('You talk to an AI of {business}.');
    expect(read.optOut.stopKeywords).toEqual(['BAJA', 'stop', 'Darme de baja']);
    expect(parseStoredPrivacySettings(read)).toEqual(read);
  });

  it('an unreadable stored object reads as the country defaults', () => {
    expect(readPrivacySettings({ retention: 1 }, 'ES')).toEqual(defaultPrivacySettings('ES'));
    expect(readPrivacySettings(defaultPrivacySettings('US'), 'ES')).toEqual(defaultPrivacySettings('US'));
  });
});
