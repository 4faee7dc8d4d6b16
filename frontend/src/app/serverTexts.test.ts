import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// i18n/index.ts sets <html lang>: the unit project runs in Node without a DOM.
vi.hoisted(() => {
  (globalThis as { document?: unknown }).document ??= { documentElement: {} };
});

import * as contract from '@agentdesk/functions/contract';
import i18n, { translateMessage } from '../i18n';
import serverEs from '../i18n/server.es.json';
import es from '../i18n/es.json';
import { compilePatterns, fillPattern } from '../i18n/patterns';
import { billingServerMessages } from '../../../functions/src/domain/billing/messages';
import '../i18n/serverTexts';
import { translateContractText } from '../shared/apiTexts';
import { translateAdminText } from '../features/admin/messages';
import { translateVoiceText } from '../features/voice/settings/messages';
import { translateSavedReplyText } from '../features/conversations/saved-replies/messages';
import { translateApiKeyText } from '../features/api-keys/messages';
import { translateHubText } from '../features/messages/i18n';
import { inboxTexts } from '../features/conversations/inbox/api';
import { tabMessage } from '../features/agents/tabs/messages';
import { translateBookingText } from '../features/bookings/messages';
// Every feature's strings (their server texts register with i18next on import), found by path so a
// new feature's catalogue cannot be left out of this check.
import.meta.glob(['../features/**/i18n/index.ts', '../features/voice/i18n/calls.ts'], { eager: true });

const translators = [translateMessage, translateContractText, translateAdminText, translateVoiceText, translateSavedReplyText, translateApiKeyText, translateHubText, inboxTexts.translate, tabMessage, translateBookingText];

/**
 * Texts whose Spanish is rightly the English itself (true cognates, names), each with why. A text
 * left out of every translation is not one of these: "Spanish equals English" fails the walk.
 */
const SAME_IN_SPANISH: Record<string, string> = {};

/** Catalogue entries no person reads, each with why: the Stripe webhook's answers go to Stripe only. */
const NOT_FOR_PEOPLE: Record<string, string> = Object.fromEntries(
  ['invalidSignature', 'webhookNotJson', 'webhookNotEvent', 'eventDuplicate', 'eventIgnored', 'eventSubscriptionUnknown', 'eventProcessed'].map((key) => [
    `billingServerMessages.${key}`,
    "the Stripe webhook's answer, read by Stripe's retry logic and dashboard, never shown in the app",
  ]),
);

/** A text's Spanish through any of the app's translators; undefined when none knows it (or it stays English). */
function spanish(text: string): string | undefined {
  if (SAME_IN_SPANISH[text]) return text;
  for (const translate of translators) {
    const out = translate(text);
    if (out && out !== text) return out;
  }
  return undefined;
}

/** Values a feature's own translator needs to recognise a text (the voice settings' field labels). */
const SAMPLES: Record<string, string[]> = {
  'voiceMessages.messageRequired': ['Welcome message'],
  'voiceMessages.messageTooLong': ['Welcome message'],
  'voiceMessages.numberInvalid': ['Pitch'],
};

/**
 * Every catalogue of texts the API answers a person: the contract's exported `…Messages` /
 * `…Reasons` objects, and the few kept beside their domain (functions/test/unit/i18n/server-texts.test.ts
 * fails on any other catalogue or literal text outside the contract, so none is left out here).
 */
const catalogues = [
  ...Object.entries(contract).filter(([name, value]) => /([mM]essages|Reasons)$/.test(name) && value && typeof value === 'object'),
  ['billingServerMessages', billingServerMessages],
] as [string, Record<string, unknown>][];

/** What the sign-in pages answer: shown before the signed-in shell loads, so es.json must carry them. */
const SIGN_IN_CATALOGUES = ['authMessages', 'codeMessages', 'signInLimitMessages', 'httpMessages', 'messages'];

/** A catalogue entry as text: fixed, or a template filled with sample values (`{{0}}`… for templates). */
const textsOf = (texts: Record<string, unknown>, fill: (i: number) => string) =>
  Object.entries(texts).flatMap(([key, text]) =>
    typeof text === 'string' ? [[key, text] as const] : typeof text === 'function' ? [[key, (text as (...v: string[]) => string)(...Array.from({ length: text.length }, (_, i) => fill(i)))] as const] : [],
  );

describe('server texts in Spanish', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('es');
  });
  afterAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('finds the catalogues, the failure reasons among them', () => {
    const names = catalogues.map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining(['messages', 'summaryReasons', 'deliveryReasons', 'knowledgeMessages', 'recordingMessages', 'notificationMessages']));
  });

  it('translates every fixed text of every contract catalogue', () => {
    const missing = catalogues.flatMap(([name, texts]) =>
      Object.entries(texts).flatMap(([key, text]) => (typeof text === 'string' && !NOT_FOR_PEOPLE[`${name}.${key}`] && !spanish(text) ? [`${name}.${key}: ${text}`] : [])),
    );
    expect(missing).toEqual([]);
  });

  it('translates every text with values of every contract catalogue (filled with sample values)', () => {
    const missing = catalogues.flatMap(([name, texts]) =>
      Object.entries(texts).flatMap(([key, text]) => {
        if (typeof text !== 'function') return [];
        const values = SAMPLES[`${name}.${key}`] ?? Array.from({ length: text.length }, (_, i) => String(i + 2));
        const sample = (text as (...values: string[]) => string)(...values);
        return spanish(sample) ? [] : [`${name}.${key}: ${sample}`];
      }),
    );
    expect(missing).toEqual([]);
  });

  it('translates what the sign-in pages answer from the always-loaded es.json (no signed-in shell needed)', () => {
    const exact = es.serverMessages as Record<string, string>;
    const patterns = compilePatterns(exact);
    const missing = catalogues
      .filter(([name]) => SIGN_IN_CATALOGUES.includes(name))
      .flatMap(([name, texts]) =>
        textsOf(texts, (i) => String(i + 2)).flatMap(([key, text]) => {
          const known = name === 'messages' ? i18n.exists(`validation.${key}`) : Boolean(exact[text] && exact[text] !== text) || fillPattern(patterns, text, (v) => v) !== null;
          return known ? [] : [`${name}.${key}: ${text}`];
        }),
      );
    expect(missing).toEqual([]);
  });

  it('names only real cognates as the same in Spanish', () => {
    const allTexts = new Set(catalogues.flatMap(([, texts]) => textsOf(texts, (i) => String(i + 2)).map(([, text]) => text)));
    for (const [text, reason] of Object.entries(SAME_IN_SPANISH)) {
      expect(allTexts.has(text), text).toBe(true);
      expect(reason.length, text).toBeGreaterThan(10);
    }
  });

  it("keeps server.es.json's templates equal to the contract's (same English, same values)", () => {
    const templates = new Set(
      catalogues.flatMap(([, texts]) =>
        Object.values(texts).flatMap((text) =>
          typeof text === 'function' ? [(text as (...values: string[]) => string)(...Array.from({ length: text.length }, (_, i) => `{{${i}}}`))] : [],
        ),
      ),
    );
    const signInTemplates = Object.entries(es.serverMessages as Record<string, string>).filter(([english]) => /\{\{\d+\}\}/.test(english));
    for (const [english, text] of [...Object.entries(serverEs.patterns as Record<string, string>), ...signInTemplates]) {
      expect(templates.has(english), english).toBe(true);
      expect([...text.matchAll(/\{\{\d+\}\}/g)].length, english).toBe([...english.matchAll(/\{\{\d+\}\}/g)].length);
    }
  });

  it('fills the values into the Spanish of the stored failure reasons', () => {
    expect(translateMessage(contract.knowledgeMessages.httpStatus(404))).toBe('La página respondió HTTP 404');
    expect(translateMessage(contract.knowledgeMessages.tooManyChunks(5000))).toBe('El documento es demasiado largo: tiene más de 5,000 secciones de texto. Divídelo en archivos más pequeños');
    expect(translateMessage(contract.deliveryReasons.whatsappFailed(contract.deliveryReasons.tryLater))).toBe('WhatsApp no entregó el resumen: inténtalo de nuevo más tarde.');
    expect(translateMessage(contract.summaryReasons.invalidOutputWithDetail('urgency: Invalid option'))).toBe(
      'El modelo de IA devolvió dos veces un análisis no válido, así que esta llamada no tiene análisis de IA. (urgency: Invalid option)',
    );
    expect(translateMessage(contract.summaryReasons.silent)).toBe('La persona que llamó no dijo nada, así que no hay nada que analizar.');
  });

  it('leaves the English texts as they are in English', async () => {
    await i18n.changeLanguage('en');
    expect(translateMessage(contract.knowledgeMessages.httpStatus(404))).toBe('The page returned HTTP 404');
    expect(translateMessage(contract.summaryReasons.silent)).toBe(contract.summaryReasons.silent);
    await i18n.changeLanguage('es');
  });
});
