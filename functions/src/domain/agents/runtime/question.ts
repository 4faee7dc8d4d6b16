/**
 * Whether a customer message is a real question worth recording as unanswered: not small talk
 * ("hola", "gracias", "ok", "thanks!"), and with content words — at least two, or one with a
 * question mark ("¿y los sábados?"). Spanish and English, accents and case ignored.
 */
import { analyse, fold } from '../../knowledge/analysis.js';
import type { KnowledgeLanguage } from '../../knowledge/ports.js';

const SMALL_TALK = new Set(
  [
    // Spanish (folded)
    'hola', 'buenas', 'buenos', 'dias', 'tardes', 'noches', 'gracias', 'muchas', 'mil', 'ok', 'okay', 'vale', 'adios', 'hasta', 'luego',
    'pronto', 'manana', 'si', 'no', 'perfecto', 'genial', 'estupendo', 'bien', 'muy', 'de', 'nada', 'un', 'saludo', 'saludos', 'chao',
    'chau', 'que', 'tal', 'entendido', 'claro', 'listo', 'bueno', 'igualmente', 'senor', 'senora',
    // English
    'hi', 'hello', 'hey', 'thanks', 'thank', 'you', 'ok', 'okay', 'yes', 'no', 'bye', 'goodbye', 'good', 'morning', 'afternoon',
    'evening', 'night', 'great', 'perfect', 'cool', 'nice', 'sure', 'fine', 'got', 'it', 'see', 'later', 'cheers', 'much', 'very',
    'so', 'alright', 'all', 'right', 'how', 'are', 'there',
  ],
);

export function isRealQuestion(message: string, language: KnowledgeLanguage): boolean {
  const words = fold(message).match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0 || words.every((w) => SMALL_TALK.has(w))) return false;
  const content = (fold(message).match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !SMALL_TALK.has(w) && analyse(w, language).length > 0);
  return content.length >= 2 || (content.length === 1 && /[?¿]/.test(message));
}
