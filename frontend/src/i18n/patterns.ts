/**
 * Server texts with values ("The page returned HTTP 404", "… try again in 30 seconds."): matched by
 * their English template ("The page returned HTTP {{0}}") and filled into the Spanish one. The
 * sign-in pages' templates live in es.json's serverMessages (always loaded), the app's in
 * server.es.json (loaded with the signed-in shell).
 */
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const SLOT = /\{\{(\d+)\}\}/g;

export interface CompiledPattern {
  re: RegExp;
  slots: string[];
  text: string;
}

/** English template → Spanish template, compiled; entries without a {{n}} slot are left out. */
export function compilePatterns(patterns: Record<string, string>): CompiledPattern[] {
  return Object.entries(patterns)
    .filter(([english]) => /\{\{\d+\}\}/.test(english))
    .map(([english, text]) => ({
      re: new RegExp(`^${english.split(/\{\{\d+\}\}/).map(escapeRegExp).join('(.*?)')}$`, 's'),
      slots: [...english.matchAll(SLOT)].map((m) => m[1] ?? ''),
      text,
    }));
}

/** The first pattern that matches `text`, filled with its values (each passed through `value`); null when none does. */
export function fillPattern(patterns: readonly CompiledPattern[], text: string, value: (v: string) => string): string | null {
  for (const { re, slots, text: template } of patterns) {
    const match = re.exec(text);
    if (match) return slots.reduce((out, slot, i) => out.replace(`{{${slot}}}`, value(match[i + 1] ?? '')), template);
  }
  return null;
}
