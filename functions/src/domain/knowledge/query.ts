/**
 * Follow-ups: "¿y los sábados?" after "¿A qué hora abrís el viernes?" searches nothing useful on its
 * own. `searchQueryFor` rewrites such an elliptic message into a standalone search query from the
 * recent conversation, deterministically (no model call, so it costs nothing on every turn):
 *
 * - a message is a follow-up when it opens with a connector ("y", "¿y", "e", "también", "and",
 *   "what about", "how about", "also"…) or points back ("eso", "that", "it"), with at most 3 content
 *   terms; or when all its content words are generic ("¿cuánto cuesta?", "how much is it?") — a
 *   question with its own subject ("¿tenéis parking?") stands alone, so an unrelated question never
 *   borrows the previous one's words (that would defeat the refusal);
 * - the query is then the message followed by the words of the previous user message (itself
 *   rewritten when it was a follow-up), minus the words of the same kind the new message replaces
 *   (a weekday by a weekday, a month by a month, a part of the day by another: "viernes" → "sábados").
 *
 * Only the customer's own messages are used: the assistant's answers would add their many words to
 * the search.
 */
import { analyse, analyseWords, fold, termOf } from './analysis.js';
import type { KnowledgeLanguage } from './ports.js';

export interface ConversationTurn {
  role: 'user' | 'assistant';
  content: string;
}

const CONNECTORS: Record<KnowledgeLanguage, RegExp> = {
  es: /^(y|e|o|tambien|ademas|y\s+si|y\s+que\s+tal|que\s+tal|y\s+para|y\s+en)\b/,
  en: /^(and|also|plus|what\s+about|how\s+about|and\s+what\s+about|and\s+for|and\s+on|and\s+if|what\s+if)\b/,
};

/** Words of one kind: a follow-up naming one replaces the previous question's word of that kind. */
const KINDS: readonly (readonly string[])[] = [
  // weekdays (es, en) and the weekend
  ['lunes', 'martes', 'miercoles', 'jueves', 'viernes', 'sabado', 'sabados', 'domingo', 'domingos', 'festivo', 'festivos', 'feriado', 'feriados',
    'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'mondays', 'tuesdays', 'wednesdays', 'thursdays', 'fridays',
    'saturdays', 'sundays', 'weekend', 'weekends', 'weekday', 'weekdays', 'holiday', 'holidays', 'finde', 'semana'],
  ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'setiembre', 'octubre', 'noviembre', 'diciembre',
    'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
    'verano', 'invierno', 'primavera', 'otono', 'summer', 'winter', 'spring', 'autumn', 'fall'],
  ['manana', 'mananas', 'tarde', 'tardes', 'noche', 'noches', 'mediodia', 'morning', 'mornings', 'afternoon', 'afternoons', 'evening', 'evenings',
    'night', 'nights', 'noon', 'desayuno', 'comida', 'almuerzo', 'cena', 'breakfast', 'lunch', 'dinner'],
];
const KIND_OF = new Map<string, number>(KINDS.flatMap((words, kind) => words.map((w) => [w, kind] as const)));

/** Pointing back to what was just discussed. */
const REFERENCES = new Set(['eso', 'esa', 'ese', 'esos', 'esas', 'esto', 'ello', 'it', 'that', 'those', 'them', 'this', 'one', 'ones']);

/** Words that ask about "it" without naming it: alone they make a follow-up. */
const GENERIC = new Set(
  ('cuesta cuestan vale valen precio precios coste costo cuanto horario horarios hora horas abren abris abre abrir cierran cerrais cierra ' +
    'incluye incluido incluida disponible reservar reserva pagar pago tarda dura duracion ' +
    'cost costs price prices open opens close closes hours hour available included include book pay long take takes last lasts').split(' '),
);

const MAX_DEPTH = 3;

/** The search query for `message` given the conversation before it (oldest first). */
export function searchQueryFor(message: string, history: readonly ConversationTurn[], language: KnowledgeLanguage): string {
  return rewrite(message.trim(), withoutCurrent(message, history), language, 0);
}

function withoutCurrent(message: string, history: readonly ConversationTurn[]): readonly ConversationTurn[] {
  const last = history[history.length - 1];
  return last && last.role === 'user' && last.content.trim() === message.trim() ? history.slice(0, -1) : history;
}

function rewrite(message: string, history: readonly ConversationTurn[], language: KnowledgeLanguage, depth: number): string {
  if (depth >= MAX_DEPTH || !isFollowUp(message, language)) return message;
  let at = history.length - 1;
  while (at >= 0 && history[at]!.role !== 'user') at--;
  if (at < 0) return message;
  const previous = rewrite(history[at]!.content.trim(), history.slice(0, at), language, depth + 1);
  const replaced = new Set<number>();
  for (const w of words(message)) {
    const kind = KIND_OF.get(w);
    if (kind !== undefined) replaced.add(kind);
  }
  const newTerms = new Set(analyse(message, language));
  const kept = analyseWords(previous, language)
    .map((w) => previous.slice(w.start, w.end))
    .filter((word) => {
      const kind = KIND_OF.get(fold(word));
      if (kind !== undefined && replaced.has(kind)) return false;
      return !newTerms.has(termOf(word, language) ?? '');
    });
  return kept.length > 0 ? `${message} ${kept.join(' ')}` : message;
}

const words = (text: string) => fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];

/** Whether a message leans on the conversation before it (see the module comment). */
export function isFollowUp(message: string, language: KnowledgeLanguage): boolean {
  const all = words(message);
  const content = all.filter((w) => termOf(w, language) !== null);
  if (content.every((w) => GENERIC.has(w))) return true;
  if (new Set(analyse(message, language)).size > 3) return false;
  const opening = all.join(' ');
  return CONNECTORS.es.test(opening) || CONNECTORS.en.test(opening) || all.some((w) => REFERENCES.has(w));
}
