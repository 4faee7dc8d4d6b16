import { describe, expect, it } from 'vitest';
import { VOICE_CATALOGUE, VOICE_DEFAULTS, voiceMessages, type VoiceSettings } from '@agentdesk/functions/contract';
import { compactPhone, formFromSettings, parseForm, voiceCanStream, voiceKey, voiceLanguageMismatch, voiceOptions } from './settingsForm';
import en from './i18n/en.json';
import es from './i18n/es.json';

const stored: VoiceSettings = {
  ...VOICE_DEFAULTS,
  phoneNumber: { requested: false, status: null, requestedAt: null, assignedAt: null, notes: '', number: null },
  summaryWebhookSecretHint: null,
};

describe('voice settings form', () => {
  it('starts from the stored settings with numbers as text and a null method as disabled', () => {
    const values = formFromSettings({ ...stored, speechRate: 1.2, maxCallDuration: 600 });
    expect(values.speechRate).toBe('1.2');
    expect(values.maxCallDuration).toBe('600');
    expect(values.summaryNotificationMethod).toBe('disabled');
    expect(values.voice).toBe('Google.es-ES-Standard-A');
  });

  it('sends numeric fields as numbers and disabled as null (SPEC §5)', () => {
    const values = { ...formFromSettings(stored), speechRate: '1.5', pitch: '0.8', volume: '2', maxCallDuration: '120' };
    const parsed = parseForm(values);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.body.speechRate).toBe(1.5);
    expect(parsed.body.pitch).toBe(0.8);
    expect(parsed.body.volume).toBe(2);
    expect(parsed.body.maxCallDuration).toBe(120);
    expect(parsed.body.summaryNotificationMethod).toBeNull();
    expect(typeof parsed.body.speechRate).toBe('number');
  });

  it('refuses premium voices, out-of-range numbers and a webhook method without a URL, with the server texts', () => {
    const premium = VOICE_CATALOGUE.find((v) => !v.included);
    const parsed = parseForm({
      ...formFromSettings(stored),
      voice: premium?.id ?? '',
      speechRate: '3',
      maxCallDuration: '10.5',
      summaryNotificationMethod: 'webhook',
      summaryWebhookUrl: '',
      escalationForwardNumber: '555-1234',
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.voice).toBe(voiceMessages.premiumVoice);
    expect(parsed.errors.speechRate).toBe(voiceMessages.speechRateRange);
    expect(parsed.errors.maxCallDuration).toBe(voiceMessages.maxCallDurationRange);
    expect(parsed.errors.escalationForwardNumber).toBe(voiceMessages.forwardNumberInvalid);
  });

  it('asks for a webhook URL when the method is webhook', () => {
    const parsed = parseForm({ ...formFromSettings(stored), summaryNotificationMethod: 'webhook', summaryWebhookUrl: '' });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.summaryWebhookUrl).toBe(voiceMessages.webhookUrlRequired);
    const invalid = parseForm({ ...formFromSettings(stored), summaryNotificationMethod: 'webhook', summaryWebhookUrl: 'ftp://x' });
    expect(!invalid.ok && invalid.errors.summaryWebhookUrl).toBe(voiceMessages.webhookUrlInvalid);
  });

  it('lists the included voices first and the three premium voices apart (SPEC §9)', () => {
    const { included, premium } = voiceOptions();
    expect(included.map((v) => v.id)).toContain('Polly.Brian');
    expect(premium.map((v) => v.id)).toEqual([
      'Google.es-ES-Chirp3-HD-Leda',
      'Google.es-ES-Chirp3-HD-Charon',
      'Google.es-ES-Chirp3-HD-Orus',
    ]);
    expect(included.every((v) => v.included)).toBe(true);
  });

  it('notices a voice in another language than the callers', () => {
    expect(voiceLanguageMismatch('Polly.Brian', 'es-ES')).toBe(true);
    expect(voiceLanguageMismatch('Polly.Brian', 'en-US')).toBe(false);
    expect(voiceLanguageMismatch('Polly.Lucia', 'es-MX')).toBe(false);
  });

  it('keeps the conversation mode: real time by default, classic when stored, and sends it', () => {
    expect(formFromSettings(stored).conversationMode).toBe('streaming');
    expect(formFromSettings({ ...stored, conversationMode: 'gather' }).conversationMode).toBe('gather');
    const parsed = parseForm({ ...formFromSettings(stored), conversationMode: 'gather' });
    expect(parsed.ok && parsed.body.conversationMode).toBe('gather');
  });

  it('knows which voices can answer in real time (the others keep the classic mode)', () => {
    expect(voiceCanStream('Google.es-ES-Standard-A')).toBe(true);
    expect(voiceCanStream('Polly.Lucia')).toBe(true);
    expect(voiceCanStream('Polly.Conchita')).toBe(false);
    expect(voiceCanStream('Polly.Enrique')).toBe(false);
    expect(voiceCanStream('unknown')).toBe(false);
  });

  it('keeps the additional languages (none before issue 28) and refuses the main one, repeats, more than three or unknown codes, with the server texts', () => {
    expect(formFromSettings({ ...stored, additionalLanguages: undefined as never }).additionalLanguages).toEqual([]);
    const values = { ...formFromSettings({ ...stored, additionalLanguages: ['en-US'] }) };
    expect(values.additionalLanguages).toEqual(['en-US']);
    const ok = parseForm(values);
    expect(ok.ok && ok.body.additionalLanguages).toEqual(['en-US']);

    const refused = (additionalLanguages: string[]) => {
      const parsed = parseForm({ ...values, additionalLanguages });
      return parsed.ok ? null : parsed.errors.additionalLanguages;
    };
    expect(refused(['es-ES'])).toBe(voiceMessages.additionalLanguageRepeated);
    expect(refused(['en-US', 'en-US'])).toBe(voiceMessages.additionalLanguageRepeated);
    expect(refused(['en-US', 'en-GB', 'es-MX', 'en-US'])).toBe(voiceMessages.additionalLanguagesTooMany);
    expect(refused(['fr-FR'])).toBe(voiceMessages.additionalLanguageInvalid);
  });
});

describe('voices and numbers in an owner\'s words (issue 29)', () => {
  it('takes a forwarding number written with spaces or dashes and sends it in E.164', () => {
    expect(compactPhone('+34 612 34 56 78')).toBe('+34612345678');
    expect(compactPhone('+34-612-345-678')).toBe('+34612345678');
    expect(compactPhone('+1 (415) 555-0123')).toBe('+14155550123');
    const parsed = parseForm({ ...formFromSettings(stored), escalationForwardNumber: '+34 612 34 56 78' });
    expect(parsed.ok && parsed.body.escalationForwardNumber).toBe('+34612345678');
    const refused = parseForm({ ...formFromSettings(stored), escalationForwardNumber: '612 34 56 78' });
    expect(refused.ok ? null : refused.errors.escalationForwardNumber).toBe(voiceMessages.forwardNumberInvalid);
  });

  it('names and describes every catalogue voice in both languages, with no provider code as a name', () => {
    for (const catalogue of [en, es]) {
      for (const voice of VOICE_CATALOGUE) {
        const text = (catalogue.voices as Record<string, { name: string; description: string } | undefined>)[voiceKey(voice.id)];
        expect(text?.name, voice.id).toBeTruthy();
        expect(text?.description, voice.id).toBeTruthy();
        expect(text?.name, voice.id).not.toMatch(/Standard|Chirp|Polly|Google|[a-z]{2}-[A-Z]{2}/);
      }
    }
    expect(es.voices[voiceKey('Google.es-ES-Standard-A') as 'Google_es-ES-Standard-A'].name).toBe('Voz femenina 1');
  });
});
