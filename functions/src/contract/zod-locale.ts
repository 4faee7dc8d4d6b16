/**
 * zod/mini loads no locale, so every issue without an explicit message would read "Invalid input".
 * The classic API registered English on first use; doing the same here keeps the default texts
 * (e.g. "Invalid input: expected string, received number", "Invalid URL") identical.
 * Import this module (for its side effect) from every module that defines zod schemas.
 * The import is cheap (~3 KB minified): only the English locale is bundled.
 */
import { config } from 'zod/mini';
import { en } from 'zod/locales';

config(en());
