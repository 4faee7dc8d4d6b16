/** The list's tag/custom-field filter matching, the facets and the bulk retag rule (pure). */
import { describe, expect, it } from 'vitest';
import { facetsOf, matchesFilter } from '../../../src/domain/contacts/list-filters.js';
import { retag } from '../../../src/domain/contacts/bulk.js';

const row = (tags: string[], customFields: Record<string, string> = {}) => ({ id: 'x', tags, customFields });

describe('matchesFilter', () => {
  it('matches whole tags and field values case- and accent-insensitively', () => {
    expect(matchesFilter(row(['Ortodoncia']), { tag: 'ortodóncia ', field: '', value: '' })).toBe(true);
    expect(matchesFilter(row(['Ortodoncia']), { tag: 'orto', field: '', value: '' })).toBe(false);
    expect(matchesFilter(row([], { Ciudad: 'Málaga' }), { tag: '', field: 'ciudad', value: 'MALAGA' })).toBe(true);
    expect(matchesFilter(row([], { Ciudad: 'Málaga' }), { tag: '', field: 'ciudad', value: '' })).toBe(true);
    expect(matchesFilter(row([], { Ciudad: 'Málaga' }), { tag: '', field: 'ciudad', value: 'Madrid' })).toBe(false);
    expect(matchesFilter(row(['vip'], {}), { tag: 'vip', field: 'Ciudad', value: '' })).toBe(false);
  });
});

describe('facetsOf', () => {
  it('counts tags case-insensitively (first spelling met wins), most used first, and lists field names alphabetically', () => {
    const facets = facetsOf([row(['VIP', 'Peña']), row(['vip'], { Seguro: 'x', ciudad: 'y' }), row([], { Ciudad: 'z' })], false);
    expect(facets).toEqual({ tags: [{ tag: 'VIP', count: 2 }, { tag: 'Peña', count: 1 }], fields: ['ciudad', 'Seguro'], truncated: true });
  });
});

describe('retag', () => {
  it('removes case-insensitively, appends new tags once, keeps existing spellings', () => {
    expect(retag(['lead', 'VIP'], ['vip', 'Paciente', 'paciente'], ['LEAD'])).toEqual(['VIP', 'Paciente']);
    expect(retag(['a'], ['b'], ['b'])).toEqual(['a']);
  });
});
