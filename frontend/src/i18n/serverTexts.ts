/**
 * Spanish for the server texts of the signed-in screens (failure reasons of calls, summaries and
 * knowledge sources, and contract messages no feature translates), registered when the app shell
 * loads so the login route does not carry them. Exact texts go to i18next's `server` namespace;
 * texts with values are matched by their English template ("The page returned HTTP {{0}}") and
 * filled into the Spanish one, the values themselves translated when they are known texts.
 * Every contract catalogue is checked against this by app/serverTexts.test.ts.
 */
import i18n, { serverText, setServerPatterns } from './index';
import serverEs from './server.es.json';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(patterns: Record<string, string>) {
  return Object.entries(patterns).map(([english, text]) => ({
    re: new RegExp(`^${english.split(/\{\{\d+\}\}/).map(escapeRegExp).join('(.*?)')}$`, 's'),
    slots: [...english.matchAll(/\{\{(\d+)\}\}/g)].map((m) => m[1] ?? ''),
    text,
  }));
}

const PATTERNS: Record<string, ReturnType<typeof compile>> = { es: compile(serverEs.patterns) };

i18n.addResourceBundle('es', 'server', serverEs.texts, true, false);

setServerPatterns((text) => {
  for (const { re, slots, text: template } of PATTERNS[i18n.language.slice(0, 2)] ?? []) {
    const match = re.exec(text);
    if (match) return slots.reduce((out, slot, i) => out.replace(`{{${slot}}}`, serverText(match[i + 1] ?? '')), template);
  }
  return null;
});
