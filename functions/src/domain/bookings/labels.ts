/**
 * A slot or booking time in words, in the business's zone: "martes 3 de diciembre a las 10:30" /
 * "Tuesday 3 December at 10:30" — what BookingSlot.label carries and what the agent reads out
 * (24-hour clock in both: no "a.m." for a voice to stumble on).
 */
import { languageOf } from '../i18n/messages.js';

const LOCALES = { es: 'es-ES', en: 'en-GB' } as const;
const formatters = new Map<string, Intl.DateTimeFormat>();

function partsOf(ms: number, language: 'es' | 'en', zone: string): Record<string, string> {
  const key = `${language}|${zone}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(LOCALES[language], { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(key, f);
  }
  const out: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) if (p.type !== 'literal') out[p.type] = p.value;
  return out;
}

/** The instant `at` (ISO or epoch ms) in words in `language` ('es', else English) and `zone`. */
export function slotLabel(at: string | number, language: unknown, zone: string): string {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  const lang = languageOf(language);
  const p = partsOf(ms, lang, zone);
  const time = `${p.hour}:${p.minute}`;
  if (lang === 'es') return `${p.weekday} ${p.day} de ${p.month} ${p.hour === '01' ? 'a la' : 'a las'} ${time}`;
  return `${p.weekday} ${p.day} ${p.month} at ${time}`;
}
