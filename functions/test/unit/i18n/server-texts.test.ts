/**
 * Every text the server can send a person has its Spanish (issue 29). Two kinds:
 * - texts the API answers (errors, messages): they live in the contract's catalogues, which
 *   frontend/src/app/serverTexts.test.ts walks against the UI's Spanish. This file makes sure none
 *   hides outside them: no error built from a literal text, no English sentence constant and no
 *   message catalogue outside contract/ (the few that are, listed below with why);
 * - texts the server writes itself (e-mails, WhatsApp and push texts, CSV headers): every
 *   catalogue() and the hand-written e-mails, whose Spanish must differ from their English.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountExistsEmail, passwordResetEmail, verificationEmail } from '../../../src/domain/auth/emails.js';
import { registeredCatalogues } from '../../../src/domain/i18n/messages.js';
import { numberAssignedEmail } from '../../../src/domain/voice/admin.js';

const src = path.resolve(import.meta.dirname, '../../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Server files outside the contract, with their path from src/. */
const files = sourceFiles(src)
  .map((file) => ({ file: path.relative(src, file).split(path.sep).join('/'), text: readFileSync(file, 'utf8') }))
  .filter(({ file }) => !file.startsWith('contract/'));

const DOMAIN_ERRORS = 'Validation|Unauthorized|PaymentRequired|Forbidden|NotFound|Conflict|TooManyRequests|LimitExceeded|BadGateway|ServiceUnavailable';

/** Outside the contract on purpose, each with why (`file#name`). */
const KEPT_OUTSIDE: Record<string, string> = {
  'domain/billing/messages.ts#billingServerMessages': 'beside the billing domain; frontend/src/app/serverTexts.test.ts imports and walks it',
  'domain/billing/messages.ts#subscriptionRequiredMessage': 'billingServerMessages.subscriptionRequired, walked with it',
  'handlers/stripe-webhook.ts#OUTCOME_MESSAGES': "the Stripe webhook's answers: read by Stripe, never by a person",
  'adapters/stripe/events.ts#INVALID_EVENT_MESSAGE': 'answered to Stripe for an event it did not send as documented',
  'domain/voice/calls.ts#callsMessages': 'made of contract texts only (recordingMessages, voiceMessages)',
  'http/multipart.ts#multipartMessages': 'made of contract texts only (httpMessages)',
  'domain/agents/runtime/prompt.ts#NO_SUPPORT_WHATSAPP': 'an instruction to the model, never shown to a person',
  'domain/agents/runtime/prompt.ts#ANSWER_FROM_KNOWLEDGE_WHATSAPP': 'an instruction to the model, never shown to a person',
  'domain/agents/runtime/booking-tools.ts#NOT_FOUND': "a booking tool's result for the model (it answers in the customer's language), never shown to a person",
};

describe('texts the API answers live in the contract', () => {
  it('builds no domain error from a literal text', () => {
    const literal = new RegExp(`new (?:${DOMAIN_ERRORS})Error\\(\\s*['"\`]`);
    const found = files.flatMap(({ file, text }) => text.split('\n').flatMap((line, i) => (literal.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])));
    expect(found).toEqual([]);
  });

  it('keeps no English sentence in a constant outside the contract', () => {
    const sentence = /^\s*(?:export )?const (\w+) = ['`][A-Z][a-z][^'`]{12,}['`];/;
    const found = files.flatMap(({ file, text }) =>
      text.split('\n').flatMap((line) => {
        const name = sentence.exec(line)?.[1];
        return name && !KEPT_OUTSIDE[`${file}#${name}`] ? [`${file}#${name}`] : [];
      }),
    );
    expect(found).toEqual([]);
  });

  it('keeps no message catalogue outside the contract', () => {
    const catalogueName = /^\s*(?:export )?const (\w*(?:[mM]essages|MESSAGES|Reasons))\b[^=]*= \{/;
    const found = files.flatMap(({ file, text }) =>
      text.split('\n').flatMap((line) => {
        const name = catalogueName.exec(line)?.[1];
        return name && !KEPT_OUTSIDE[`${file}#${name}`] ? [`${file}#${name}`] : [];
      }),
    );
    expect(found).toEqual([]);
  });

  it('lists only what is really there as kept outside', () => {
    for (const key of Object.keys(KEPT_OUTSIDE)) {
      const [file, name] = key.split('#') as [string, string];
      expect(files.find((f) => f.file === file)?.text, key).toMatch(new RegExp(`const ${name}\\b`));
    }
  });
});

/** Every string of a catalogue with its path; functions are called with sample values. */
function leaves(value: unknown, at = ''): [string, string][] {
  if (typeof value === 'string') return [[at, value]];
  if (typeof value === 'function') return leaves((value as (...v: string[]) => unknown)(...Array.from({ length: value.length }, (_, i) => `«${i}»`)), at);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, at ? `${at}.${k}` : k));
  return [];
}

/**
 * Spanish that is rightly the English itself, each with why. Values alone ("«0»"), brand names
 * and punctuation are not texts and pass by themselves.
 */
const SAME_IN_SPANISH: Record<string, string> = {
  neutral: 'the same word in Spanish (a call\'s sentiment: «neutral»)',
  Manual: 'the same word in Spanish (a contact added by hand: «Manual»)',
  API: 'an acronym Spanish uses as is (a contact created through the public API)',
};
const isText = (s: string) => /\p{L}{2,}/u.test(s.replace(/«\d+»/g, '')) && !/^(AgentDesk|WhatsApp)$/.test(s.trim());

describe('texts the server writes itself have their own Spanish', () => {
  it('every catalogue: no Spanish text equals its English', async () => {
    // Every module that may make a catalogue, so none is left out of the registry.
    await Promise.all(sourceFiles(path.join(src, 'domain')).map((file) => import(file)));
    const all = registeredCatalogues();
    expect(all.length).toBeGreaterThanOrEqual(5);

    const same = all.flatMap((texts, n) => {
      const es = new Map(leaves(texts.es));
      return leaves(texts.en).flatMap(([key, en]) => (isText(en) && es.get(key) === en && !SAME_IN_SPANISH[en] ? [`catalogue ${n} ${key}: ${en}`] : []));
    });
    expect(same).toEqual([]);
  }, 60_000);

  /** Lines of a text e-mail that read the same in Spanish as in English, values aside. */
  function sameLines(en: { subject: string; text: string }, es: { subject: string; text: string }, values: string[]): string[] {
    const english = new Set([en.subject, ...en.text.split('\n')].map((l) => l.trim()));
    return [es.subject, ...es.text.split('\n')]
      .map((l) => l.trim())
      .filter((l) => english.has(l) && isText(l) && !values.some((v) => l === v || l.endsWith(v)));
  }

  it('the sign-up, reset and account e-mails', () => {
    const code = 'ABCDEFGH23';
    expect(sameLines(verificationEmail(code, 60, 'en'), verificationEmail(code, 60, 'es'), [code])).toEqual([]);
    expect(sameLines(passwordResetEmail(code, 60, 'en', 'Lucía'), passwordResetEmail(code, 60, 'es', 'Lucía'), [code])).toEqual([]);
    for (const authProvider of ['password', 'google'] as const) {
      const input = { appUrl: 'https://app.example.com', authProvider, name: 'Lucía' };
      const en = accountExistsEmail({ ...input, language: 'en' });
      const es = accountExistsEmail({ ...input, language: 'es' });
      expect(sameLines(en, es, ['https://app.example.com/login', 'https://app.example.com/forgot-password'])).toEqual([]);
    }
  });

  it("the phone number's e-mail", () => {
    const url = 'https://app.example.com/voice-settings';
    expect(sameLines(numberAssignedEmail('+34 910 000 000', url, 'en', 'Lucía'), numberAssignedEmail('+34 910 000 000', url, 'es', 'Lucía'), ['+34 910 000 000', url])).toEqual([]);
  });
});
