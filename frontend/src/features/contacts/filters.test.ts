import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS, exportQuery, filtersToParams, hasActiveFilter, listQuery, parseFilters, searchBoxAfterUrlChange, withFilter } from './filters';

describe('parseFilters', () => {
  it('reads search, source, page and limit from the URL', () => {
    expect(parseFilters(new URLSearchParams('search=%20ana%20&source=api&page=3&limit=25'))).toEqual({
      search: 'ana',
      source: 'api',
      tag: '',
      field: '',
      value: '',
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

describe('tag and custom-field filters', () => {
  it('reads tag, field and value from the URL; a value without its field is dropped', () => {
    expect(parseFilters(new URLSearchParams('tag=%20vip%20&field=Ciudad&value=Madrid'))).toMatchObject({ tag: 'vip', field: 'Ciudad', value: 'Madrid' });
    expect(parseFilters(new URLSearchParams('value=Madrid'))).toEqual(DEFAULT_FILTERS);
    expect(filtersToParams({ ...DEFAULT_FILTERS, value: 'Madrid' }).toString()).toBe('');
  });
});

describe('filtersToParams', () => {
  it('leaves defaults out of the URL', () => {
    expect(filtersToParams(DEFAULT_FILTERS).toString()).toBe('');
    expect(filtersToParams({ ...DEFAULT_FILTERS, search: 'a b', source: 'manual', page: 2, limit: 50 }).toString()).toBe(
      'search=a+b&source=manual&page=2&limit=50',
    );
  });

  it('round-trips through parseFilters', () => {
    const f = { search: 'josé', source: 'whatsapp_import' as const, tag: 'Ortodoncia', field: 'Ciudad', value: 'Málaga', page: 4, limit: 5 };
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
    expect(hasActiveFilter({ ...DEFAULT_FILTERS, search: 'a' })).toBe(true);
    expect(hasActiveFilter({ ...DEFAULT_FILTERS, source: 'api' })).toBe(true);
    expect(hasActiveFilter({ ...DEFAULT_FILTERS, tag: 'vip' })).toBe(true);
    expect(hasActiveFilter({ ...DEFAULT_FILTERS, field: 'Ciudad' })).toBe(true);
  });
});

describe('API queries', () => {
  it('always sends page and limit to the list, only set filters to both', () => {
    expect(listQuery(DEFAULT_FILTERS)).toBe('page=1&limit=10');
    expect(listQuery({ ...DEFAULT_FILTERS, search: 'ana', source: 'manual', page: 2, limit: 5 })).toBe('page=2&limit=5&search=ana&source=manual');
    expect(listQuery({ ...DEFAULT_FILTERS, tag: 'Ortodoncia', field: 'Ciudad', value: 'Málaga' })).toBe('page=1&limit=10&tag=Ortodoncia&field=Ciudad&value=M%C3%A1laga');
    expect(exportQuery({ search: '', source: '' })).toBe('');
    expect(exportQuery({ search: 'ana', source: 'api' })).toBe('search=ana&source=api');
  });
});

describe('searchBoxAfterUrlChange', () => {
  it("keeps what was typed while the box's own push was landing", () => {
    // 'jose' was pushed by the debounce; before the navigation rendered the user typed on.
    expect(searchBoxAfterUrlChange({ input: 'nobody-here', pushed: 'jose' }, 'jose')).toEqual({ input: 'nobody-here', pushed: null });
  });

  it('follows a change from outside: a link, Back or Clear Filters', () => {
    expect(searchBoxAfterUrlChange({ input: 'jose', pushed: null }, '555-0143')).toEqual({ input: '555-0143', pushed: null });
    expect(searchBoxAfterUrlChange({ input: 'ab', pushed: 'ab' }, 'a')).toEqual({ input: 'a', pushed: null });
    expect(searchBoxAfterUrlChange({ input: 'jose', pushed: null }, '')).toEqual({ input: '', pushed: null });
  });

  it('leaves the text alone when it already matches the URL', () => {
    expect(searchBoxAfterUrlChange({ input: ' ana ', pushed: null }, 'ana')).toEqual({ input: ' ana ', pushed: null });
  });
});
