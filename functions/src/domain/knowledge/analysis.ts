/**
 * Language analysis of knowledge text and queries (the keyword half of retrieval, the best-passage
 * picker and follow-up rewriting all use it, so chunks and queries are analysed identically):
 *
 *   words   runs of unicode letters (with their combining marks) and digits
 *   fold    NFD, combining marks stripped, lower case ("Sábados" → "sabados")
 *   stop    a stop-word list of the agent's language (question words, articles, pronouns, auxiliaries)
 *   stem    a light stemmer of the agent's language:
 *           es  plural "-ces" → "-z" (luces → luz), "-es" after a consonant (meses → mes, reservaciones →
 *               reservacion), "-s" after a vowel (sábados → sabado); then a final -a/-o/-e of a word of
 *               5+ letters goes, so gender and number variants meet (sabado → sabad, bebidas → bebid)
 *               — the rules of Savoy's light stemmer (Lucene's SpanishLightStemmer), re-ordered so
 *               "hora"/"horas" and "mes"/"meses" meet too
 *               The customer's second-person plural verbs ("¿abrís?", "¿cerráis?", "¿hacéis?", "tenéis")
 *               are dropped like stop words: documents say "abrimos"/"cerrado", so these words never
 *               match and would only count as missing key words against the absolute relevance
 *           en  Porter step 1a: "-sses" → "-ss", "-ies" → "-y", a final "-s" (not "-ss", "-us", "-is") of
 *               a word of 4+ letters goes (prices → price, policies → policy)
 *   intents the questions customers ask most, price, opening hours and where, get one term each
 *           whatever the wording ("¿dónde estáis?" finds "Estamos en la calle…", "dirección"): "cuesta"/"vale"/"precio"/"tarifa"/"cost"/"fee" and a currency
 *           sign ("45 €") all give PRICE_TERM; "horario"/"hora"/"abrís"/"cierra"/"open"/"hours"
 *           and a clock time ("9:00") all give HOURS_TERM — so "¿Cuánto cuesta una limpieza?"
 *           finds "Limpieza | 45 €" with every key word held
 *   concepts the customer vocabulary of vocabulary.ts: words (or their stems) of one ring give the ring's
 *           term, multi-word phrases ("flat tyre", "somos 14") one term for the phrase
 *   weak     words of the question that carry little of its topic count less in the absolute
 *           relevance (weightOfTerm)
 */
import type { KnowledgeLanguage } from './ports.js';
import { conceptPhrases, ringWords, WEAK_WORD_WEIGHT, weakWords } from './vocabulary.js';

/** Documents and queries are analysed identically; words longer than this are cut. */
export const MAX_TOKEN_LENGTH = 40;

/** NFD + strip combining marks + lower case: "José" → "jose". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

const words = (list: string) => new Set(list.split(/\s+/).filter(Boolean));

const STOP_WORDS: Record<KnowledgeLanguage, ReadonlySet<string>> = {
  en: words(`
    a an and are as at be been but by can could do does did for from had has have how i if in into is it its
    me my of on or our so than that the their them then there these they this those to was we were what when
    where which who whom why will with would you your yours much many any some about tell please per s t
    am us let get got just also very should shall may might must ok okay hi hello thanks thank m his her
    happen happens`),
  // Folded (no accents): "qué" is "que".
  es: words(`
    a al algo algun alguna alguno algunos algunas ante como con contra cual cuales cuando cuanto cuanta
    cuantos cuantas de del desde donde e el ella ellas ello ellos en entre era eres es esa esas ese eso esos
    esta estas este esto estos estoy estan estas estamos esta fue ha han has hay he hemos la las le les lo
    los me mi mis mucho muchos muy nos nosotros o os otra otro para pero poco por porque que quien quienes
    se sea ser si sin sobre son soy su sus tambien te tengo ti tu tus u un una uno unos unas usted ustedes
    vosotros y ya yo puedo puede pueden podeis podemos quiero quisiera saber decir dime digame favor hola
    gracias buenas buenos oye pues entonces tiene tienen teneis tienes tenemos hasta despues todavia
    somos mismo misma ir pasa pasaria hacer hago hace`),
};

/** The terms of the two intents (not words of either language, so no word collides with them). */
export const PRICE_TERM = '_price';
export const HOURS_TERM = '_hours';
export const PLACE_TERM = '_place';

const INTENTS: Record<KnowledgeLanguage, ReadonlyMap<string, string>> = {
  es: intentMap({
    [PRICE_TERM]:
      'cuesta cuestan costar cuesto vale valen precio precios coste costes costo costos tarifa tarifas importe importes ' +
      'pagar pago pagos paga pagan pagas pagamos pagado pagada abonar abono cobrar cobra cobran cobrais cobrado gratis gratuito gratuita gratuitos gratuitas',
    [HOURS_TERM]: 'horario horarios hora horas abris abren abre abrimos abierto abierta abiertos abrir cerrais cierran cierra cerramos cerrado cerrada cerrar',
    [PLACE_TERM]: 'donde direccion ubicacion ubicados situados estamos estais calle avenida plaza',
  }),
  en: intentMap({
    // Not "free": "gluten-free", "feel free".
    [PRICE_TERM]: 'cost costs price prices priced pricing fee fees rate rates charge charges charged pay pays paying payment payments paid',
    [HOURS_TERM]: 'hours hour open opens opening close closes closing closed time times',
    [PLACE_TERM]: 'where address located location street avenue',
  }),
};
function intentMap(lists: Record<string, string>): ReadonlyMap<string, string> {
  return new Map(Object.entries(lists).flatMap(([term, list]) => list.split(' ').map((w) => [w, term] as const)));
}

/**
 * Customers do not always write in the agent's language (a tourist asks a Spanish clinic in
 * English): the other language's stop words and intent words count too, except the few Spanish
 * stop words that are English content words ("no", "sea", "favor"…).
 */
const NOT_STOP_IN_EN = new Set(['no', 'sea', 'favor', 'era', 'sin', 'contra', 'ante', 'entre', 'hay', 'mucho', 'poco', 'solo', 'pasa']);
const STOPS: Record<KnowledgeLanguage, ReadonlySet<string>> = {
  es: new Set([...STOP_WORDS.es, ...STOP_WORDS.en]),
  en: new Set([...STOP_WORDS.en, ...[...STOP_WORDS.es].filter((w) => !NOT_STOP_IN_EN.has(w))]),
};

/** Light stemmers (see the module comment). Input is folded. */
const STEMMERS: Record<KnowledgeLanguage, (w: string) => string> = {
  es(w) {
    if (w.length <= 3 || /\d/.test(w)) return w;
    let s = w;
    if (s.endsWith('ces') && s.length >= 5) s = `${s.slice(0, -3)}z`;
    else if (s.endsWith('es') && s.length >= 5 && !/[aeiou]/.test(s[s.length - 3]!)) s = s.slice(0, -2);
    else if (s.endsWith('s') && /[aeiou]/.test(s[s.length - 2]!)) s = s.slice(0, -1);
    // A consonant + "s" is a borrowed plural ("brackets", "refunds").
    else if (s.endsWith('s') && s.length >= 5 && !/[su]s$/.test(s)) s = s.slice(0, -1);
    if (s.length >= 5 && /[aoe]$/.test(s)) s = s.slice(0, -1);
    return s;
  },
  en(w) {
    if (w.length <= 3 || /\d/.test(w)) return w;
    if (w.endsWith('sses')) return w.slice(0, -2);
    if (w.endsWith('ies') && w.length >= 5) return `${w.slice(0, -3)}y`;
    if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
    return w;
  },
};

/** "-áis"/"-éis" (accents optional: customers type "cerrais"), or an accented "-ís" ("abrís"), of 5+ letters; "seis" is a number. */
function isVosotrosVerb(word: string, folded: string): boolean {
  if (folded.length < 5 || folded === 'seis') return false;
  return /(ais|eis)$/.test(folded) || /ís$/i.test(word.normalize('NFC'));
}

const ASCII = /^[\p{ASCII}]*$/u;

/** One word of a text: its analysed term and where it stands in the original text ([start, end)). */
export interface AnalysedWord {
  term: string;
  start: number;
  end: number;
}

/** A word or a currency sign. */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*|[€$£]/gu;
/** A clock time ("9:00", "21h30"): it adds HOURS_TERM, its digits stay words too. */
const CLOCK = /(?<![\p{N}:])\d{1,2}(?::|h)\d{2}(?![\p{N}:])/gu;
const ANY_CLOCK = new RegExp(CLOCK.source, 'u');

/** The analysed term of one word, or null for a stop word. */
export function termOf(word: string, language: KnowledgeLanguage): string | null {
  // ASCII words need no Unicode normalisation (the hot path of indexing and near-duplicate checks).
  let w = ASCII.test(word) ? word.toLowerCase() : fold(word);
  if (w.length > MAX_TOKEN_LENGTH) w = w.slice(0, MAX_TOKEN_LENGTH);
  if (w === '€' || w === '$' || w === '£') return PRICE_TERM;
  const intent = INTENTS[language].get(w) ?? INTENTS[language === 'es' ? 'en' : 'es'].get(w) ?? CONCEPTS[language].get(w);
  if (intent) return intent;
  if (w === '' || STOPS[language].has(w)) return null;
  if (language === 'es' && isVosotrosVerb(word, w)) return null;
  const stem = STEMMERS[language](w);
  return CONCEPTS[language].get(stem) ?? stem;
}

/**
 * The rings of both languages (customers mix them), keyed by each word and by its stem in the
 * agent's language, so inflections a ring does not list meet it too; the agent's language wins.
 */
const CONCEPTS: Record<KnowledgeLanguage, ReadonlyMap<string, string>> = { es: conceptMap('es'), en: conceptMap('en') };
function conceptMap(language: KnowledgeLanguage): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  const other = language === 'es' ? 'en' : 'es';
  for (const [word, term] of [...ringWords(language), ...ringWords(other)]) {
    if (!map.has(word)) map.set(word, term);
    const stem = STEMMERS[language](word);
    if (!map.has(stem)) map.set(stem, term);
  }
  return map;
}

/** The terms of the weak words, per language (see weightOfTerm). */
const WEAK_TERMS: Record<KnowledgeLanguage, ReadonlySet<string>> = { es: weakTermsOf('es'), en: weakTermsOf('en') };
function weakTermsOf(language: KnowledgeLanguage): ReadonlySet<string> {
  const terms = [...weakWords(language), ...weakWords(language === 'es' ? 'en' : 'es')].map((w) => termOf(w, language));
  return new Set(terms.filter((t): t is string => t !== null && !t.startsWith('_')));
}

/** How much a question's term counts in the absolute relevance: a weak word or a number counts WEAK_WORD_WEIGHT, a topic word 1. */
export function weightOfTerm(term: string, language: KnowledgeLanguage): number {
  return /^\d+$/.test(term) || WEAK_TERMS[language].has(term) ? WEAK_WORD_WEIGHT : 1;
}

/** The words of a text with their terms and offsets (stop words left out; a concept phrase is one word). */
export function analyseWords(text: string, language: KnowledgeLanguage): AnalysedWord[] {
  return wordsWithPhrases(text, language, conceptPhrases(foldKeepingOffsets(text)));
}

function wordsWithPhrases(text: string, language: KnowledgeLanguage, phrases: ReturnType<typeof conceptPhrases>): AnalysedWord[] {
  const out: AnalysedWord[] = phrases.map((p) => ({ term: p.term, start: p.start, end: p.end }));
  // Phrases come in pattern order: sorted by start, a word is inside one when it starts before its end.
  const spans = [...phrases].sort((a, b) => a.start - b.start);
  let next = 0;
  for (const match of text.matchAll(WORD)) {
    while (next < spans.length && spans[next]!.end <= match.index) next++;
    if (next < spans.length && spans[next]!.start <= match.index) continue;
    const term = termOf(match[0], language);
    if (term !== null) out.push({ term, start: match.index, end: match.index + match[0].length });
  }
  // The time's mark covers the whole time, so a highlight of the hours shows "9:00".
  for (const m of text.matchAll(CLOCK)) out.push({ term: HOURS_TERM, start: m.index, end: m.index + m[0].length });
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** The terms of a text, in order, repeated as often as they occur. */
export function analyse(text: string, language: KnowledgeLanguage): string[] {
  const phrases = conceptPhrases(foldKeepingOffsets(text));
  // Most chunks hold no phrase and no clock time: no offsets needed (the hot path of indexing).
  if (phrases.length > 0 || ANY_CLOCK.test(text)) return wordsWithPhrases(text, language, phrases).map((w) => w.term);
  const out: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const term = termOf(match[0], language);
    if (term !== null) out.push(term);
  }
  return out;
}

/** fold() with every offset of the result the same character's in `text` (a character that folds to another length is spaces). */
function foldKeepingOffsets(text: string): string {
  return text.replace(/[^\p{ASCII}]/gu, foldChar).toLowerCase();
}
const foldedChars = new Map<string, string>();
function foldChar(ch: string): string {
  let f = foldedChars.get(ch);
  if (f === undefined) {
    f = fold(ch);
    if (f.length !== ch.length) f = ' '.repeat(ch.length);
    // Bounded: a text in an unusual script must not grow it without limit.
    if (foldedChars.size < 4096) foldedChars.set(ch, f);
  }
  return f;
}

/** What the keyword index holds for a chunk: its heading path with its text (a section title names what the rows below are about). */
export function chunkTerms(chunk: { text: string; headings: readonly string[] }, language: KnowledgeLanguage): string[] {
  return analyse(chunk.headings.length > 0 ? `${chunk.headings.join('\n')}\n${chunk.text}` : chunk.text, language);
}
