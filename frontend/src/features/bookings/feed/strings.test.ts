import { describe, expect, it } from 'vitest';
import { keyPaths as keys } from '../../../i18n/keyPaths';
import en from './i18n/en.json';
import es from './i18n/es.json';

describe('calendar feed panel strings', () => {
  it('has every English key in Spanish, each one translated', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
    const flat = (o: object, prefix = ''): [string, string][] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : flat(v as object, `${prefix}${k}.`)));
    const spanish = new Map(flat(es));
    for (const [key, text] of flat(en)) expect(spanish.get(key), key).not.toBe(text);
  });
});
