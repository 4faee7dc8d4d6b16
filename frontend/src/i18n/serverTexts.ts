/**
 * Spanish for the server texts of the signed-in screens (failure reasons of calls, summaries and
 * knowledge sources, and contract messages no feature translates), registered when the app shell
 * loads so the login route does not carry them. Exact texts go to i18next's `server` namespace;
 * texts with values are matched by their English template ("The page returned HTTP {{0}}") and
 * filled into the Spanish one, the values themselves translated when they are known texts.
 * Every contract catalogue is checked against this by app/serverTexts.test.ts.
 */
import i18n, { serverText, setServerPatterns } from './index';
import { compilePatterns, fillPattern } from './patterns';
import serverEs from './server.es.json';

const PATTERNS: Record<string, ReturnType<typeof compilePatterns>> = { es: compilePatterns(serverEs.patterns) };

i18n.addResourceBundle('es', 'server', serverEs.texts, true, false);

setServerPatterns((text) => fillPattern(PATTERNS[i18n.language.slice(0, 2)] ?? [], text, serverText));
