/**
 * Every UI catalogue under frontend/src (issue 29): counts take ICU plural forms ("1 creado", not
 * "1 creados"; i18n/plurals.ts formats every count in the account's locale, "10.000"), and the Spanish product shows
 * no internal jargon — types ("fecha: string"), codes ("es-ES", "Standard A", "E.164", a US example
 * number) or model knobs ("Temperatura", "Tokens máximos") — outside the advanced options that fold
 * them away.
 */
import { describe, expect, it } from 'vitest';

const modules = import.meta.glob('../**/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;

type Leaf = { file: string; key: string; value: string };

function leaves(file: string, value: unknown, prefix = ''): Leaf[] {
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(file, v, prefix ? `${prefix}.${k}` : k));
  return typeof value === 'string' ? [{ file, key: prefix, value }] : [];
}

/** Files whose keys are server texts (English sentences), translated by their values. */
const isServerFile = (file: string) => /server\.json$|server\.es\.json$/.test(file);
const languageOf = (file: string): 'en' | 'es' | null => {
  const name = file.split('/').pop() ?? '';
  if (/(^|\.)en\.json$/.test(name)) return 'en';
  if (/(^|\.)es(-server)?\.json$/.test(name) || name === 'server.es.json') return 'es';
  return null;
};
/** The app-wide Spanish file carries the server texts under serverMessages. */
const serverKey = (leaf: Leaf) => leaf.key.startsWith('serverMessages.');

const catalogues = Object.entries(modules)
  .map(([file, json]) => ({ file: file.replace(/^\.\.\//, ''), json, language: languageOf(file) }))
  .filter((c): c is { file: string; json: unknown; language: 'en' | 'es' } => c.language !== null);
const uiLeaves = catalogues.filter((c) => !isServerFile(c.file)).flatMap((c) => leaves(c.file, c.json).filter((l) => !serverKey(l)));
const spanishLeaves = catalogues.filter((c) => c.language === 'es').flatMap((c) => leaves(c.file, c.json));

const PLURAL = /_(zero|one|two|few|many|other)$/;
/** A number put into a text: counts and totals. */
const NUMBER_VARIABLE = /\{\{\s*(count|total|created|skipped|duplicates|errors|n)\s*(,\s*number\s*)?\}\}/g;
/** Words that may follow a number without agreeing with it: "3 de 10", "5 in Active", "hace 4 min", "12 h". */
const NEUTRAL_NEXT = new Set(['de', 'of', 'in', 'en', 'a', 'to', 'min', 'h', 'd', 's', 'ms', 'm']);

/** The noun a number is put before ("{{count}} llamadas" → "llamadas"), when it is one that agrees with it. */
function countedWords(value: string): string[] {
  const words: string[] = [];
  for (const match of value.matchAll(NUMBER_VARIABLE)) {
    const next = /^\s+([\p{L}]+)/u.exec(value.slice((match.index ?? 0) + match[0].length))?.[1];
    if (next && !NEUTRAL_NEXT.has(next.toLowerCase())) words.push(next);
  }
  return words;
}


describe('UI catalogues: counts (issue 29)', () => {
  it('finds the catalogues', () => {
    expect(catalogues.length).toBeGreaterThan(30);
    expect(uiLeaves.some((l) => l.key === 'agentTabs.tools.parameters_one')).toBe(true);
  });

  it('puts every counted noun in a plural form (key_one / key_other)', () => {
    const offenders = uiLeaves.filter((l) => !PLURAL.test(l.key) && countedWords(l.value).length > 0).map((l) => `${l.file} ${l.key}: ${l.value}`);
    expect(offenders).toEqual([]);
  });

  it('has both the one and the other form of every plural', () => {
    const keys = new Set(uiLeaves.map((l) => `${l.file} ${l.key}`));
    const missing = [...keys]
      .filter((k) => /_(one|other)$/.test(k))
      .map((k) => k.replace(/_one$/, '_other').replace(/_other$/, k.endsWith('_one') ? '_other' : '_one'))
      .filter((k) => !keys.has(k));
    expect(missing).toEqual([]);
  });

});

/** Model knobs are allowed in these keys: they are shown inside the ChatGPT dialog's Opciones avanzadas. */
const ADVANCED_KEYS = new Set(['chatgpt.maxTokensHint']);
/** Operator-only pages (admin) speak to the team, not to an owner. */
const OWNER_FACING = (leaf: Leaf) => !leaf.file.startsWith('features/admin/');

const JARGON: [string, RegExp][] = [
  ['a JSON type', /\b(string|boolean)\b/],
  ['E.164', /E\.164/],
  ['a model knob', /\bTemperatura\b|\btokens? máximos\b|\d\s*tokens\b|\bprompt del sistema\b/i],
  ['a language code', /\b(es|en)-(ES|MX|US|GB)\b/],
  ['a provider voice name', /\bStandard [A-Z]\b|\bChirp|\bPolly\./],
  ['a US example number', /\+1\s?\(?[2-9]\d{2}\)?[\s-]?\d{3}/],
  ['a query string', /query string/i],
];

describe('Spanish catalogues: no jargon in front of an owner (issue 29)', () => {
  it('finds the Spanish catalogues', () => {
    expect(spanishLeaves.length).toBeGreaterThan(1000);
  });

  for (const [what, pattern] of JARGON) {
    it(`shows no ${what}`, () => {
      const offenders = spanishLeaves
        .filter((l) => OWNER_FACING(l))
        .filter((l) => !ADVANCED_KEYS.has(l.key) && pattern.test(l.value))
        .map((l) => `${l.file} ${l.key}: ${l.value}`);
      expect(offenders).toEqual([]);
    });
  }
});
