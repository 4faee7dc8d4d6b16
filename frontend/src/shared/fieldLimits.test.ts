/**
 * Field limits shown = limits enforced (issue 19: the API key name field took 60 characters while
 * its counter said 50). A generic check over every screen's source: an input's maxLength is a
 * contract constant as it is (the one its counter and the API use), never a literal (which drifts
 * from the API's) or a constant plus slack (which lets the field take more than the counter says).
 */
import { describe, expect, it } from 'vitest';

const sources = import.meta.glob('../**/*.tsx', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

/** Every `maxLength: …` / `maxLength={…}` value in a source. */
const maxLengths = (source: string) => [...source.matchAll(/maxLength(?::\s*|=\{)([^,}\n]+)/g)].map((m) => (m[1] ?? '').trim());

describe('text field limits', () => {
  it('finds the screens (the check is not vacuous)', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    expect(maxLengths(sources['../features/api-keys/CreateApiKeyDialog.tsx'] ?? '')).toEqual(['API_KEY_LIMITS.name']);
  });

  it.each(Object.entries(sources).filter(([, s]) => /maxLength/.test(s)))('%s: every maxLength is a named limit, as it is', (_file, source) => {
    for (const value of maxLengths(source)) {
      if (value === 'maxLength') continue; // a prop passed through (shared/filters.tsx)
      // A field whose limit depends on what it holds (a reply's text or a file's caption) picks between two named limits.
      const choice = /^[A-Za-z_][\w.]* \? (\S+) : (\S+)$/.exec(value);
      for (const limit of choice ? [choice[1], choice[2]] : [value]) {
        expect(limit, 'a contract constant, no arithmetic').toMatch(/^[A-Z][A-Z0-9_]*(\.[A-Za-z0-9_]+)*$/);
      }
    }
  });
});
