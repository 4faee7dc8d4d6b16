import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS, exportQuery, filtersToParams, hasActiveFilter, listQuery, parseFilters, withFilter } from './filters';

describe('parseFilters', () => {
  it('reads search, source, page and limit from the URL', () => {
    expect(parseFilters(new URLSearchParams('search=%20ana%20&source=api&page=3&limit=25'))).toEqual({
      search: 'ana',
      source: 'api',
      page: 3,
      limit: 25,
    });
  });

  it('falls back to the defaults for missing or invalid values', () => {
    expect(parseFilters(new URLSearchParams(''))).toEqual(DEFAULT_FILTERS);
    expect(parseFilters(new URLSearchParams('source=fax&page=0&limit=7'))).toEqual(DEFAULT_FILTERS);
    expect(parseFilters(new URLSearchParams('page=-2&limit=abc'))).toEqual(DEFAULT_FILTERS);
    expect(parseFilters(new URLSearchParams('page=2.5'))).toEqual(DEFAULT_FILTERS);
  });
});

describe('filtersToParams', () => {
  it('leaves defaults out of the URL', () => {
    expect(filtersToParams(DEFAULT_FILTERS).toString()).toBe('');
    expect(filtersToParams({ search: 'a b', source: 'manual', page: 2, limit: 50 }).toString()).toBe(
      'search=a+b&source=manual&page=2&limit=50',
    );
  });

  it('round-trips through parseFilters', () => {
    const f = { search: 'josé', source: 'whatsapp_import' as const, page: 4, limit: 5 };
    expect(parseFilters(filtersToParams(f))).toEqual(f);
  });
});

describe('withFilter', () => {
  it('resets the page to 1', () => {
    expect(withFilter({ ...DEFAULT_FILTERS, page: 4 }, { search: 'x' })).toEqual({ ...DEFAULT_FILTERS, search: 'x' });
    expect(withFilter({ ...DEFAULT_FILTERS, page: 4 }, { limit: 25 }).page).toBe(1);
  });
});

describe('hasActiveFilter', () => {
  it('is true with a search or a source', () => {
    expect(hasActiveFilter(DEFAULT_FILTERS)).toBe(false);
    expect(hasActiveFilter({ search: 'a', source: '' })).toBe(true);
    expect(hasActiveFilter({ search: '', source: 'api' })).toBe(true);
  });
});

describe('API queries', () => {
  it('always sends page and limit to the list, only set filters to both', () => {
    expect(listQuery(DEFAULT_FILTERS)).toBe('page=1&limit=10');
    expect(listQuery({ search: 'ana', source: 'manual', page: 2, limit: 5 })).toBe('page=2&limit=5&search=ana&source=manual');
    expect(exportQuery({ search: '', source: '' })).toBe('');
    expect(exportQuery({ search: 'ana', source: 'api' })).toBe('search=ana&source=api');
  });
});
