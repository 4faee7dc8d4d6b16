/**
 * Contract texts in the UI language: the server sends the contract's English texts (validation
 * and server messages); a feature translates the ones it knows under its own i18n keys, named like
 * the contract's message object. Anything unknown goes to the app's translateMessage.
 */
import { serverMessageOf } from '../api/client';
import i18n, { translateMessage } from './index';

export interface ContractTextSource {
  /** i18n key prefix of the translations, e.g. 'admin.messages'. */
  prefix: string;
  /** The contract's message object (key → English text; function entries are skipped). */
  contract: object;
  /** The feature's English translations: their keys say which contract texts it translates. */
  keys: object;
}

/** A translator for the given sources; the first source that knows a text wins. */
export function contractTexts(sources: ContractTextSource[]) {
  const keyByText = new Map<string, string>();
  for (const { prefix, contract, keys } of sources) {
    for (const key of Object.keys(keys)) {
      const text = (contract as Record<string, unknown>)[key];
      if (typeof text === 'string' && !keyByText.has(text)) keyByText.set(text, `${prefix}.${key}`);
    }
  }

  /** A contract text (English) in the UI language. */
  const translate = (text: string | undefined): string => {
    if (!text) return '';
    const key = keyByText.get(text);
    return key ? i18n.t(key) : translateMessage(text);
  };

  return {
    translate,
    /** Whether the text is one of these sources' translated contract texts. */
    isKnown: (text: string | undefined): boolean => Boolean(text && keyByText.has(text)),
    /** The server's message for a failed call (translated when known), else the caller's fallback. */
    errorText: (err: unknown, fallback: string): string => {
      const server = serverMessageOf(err);
      return server ? translate(server) : fallback;
    },
    /** The server's message only when it is a known contract text (translated), else the fallback. */
    knownErrorText: (err: unknown, fallback: string): string => {
      const server = serverMessageOf(err);
      return server && keyByText.has(server) ? translate(server) : fallback;
    },
  };
}
