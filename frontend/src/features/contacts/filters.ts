/**
 * The list's filters live in the URL query (search, source, tag, field, value, page, limit) so links such as
 * /contacts?search=… and the back button work. Defaults are left out of the URL.
 */
import {
  CONTACT_PAGE_SIZES as PAGE_SIZES,
  CONTACT_SOURCES,
  DEFAULT_CONTACT_PAGE_SIZE as DEFAULT_PAGE_SIZE,
  type ContactSource,
} from '@agentdesk/functions/contract';

export { PAGE_SIZES, DEFAULT_PAGE_SIZE };
export const SEARCH_DEBOUNCE_MS = 500;

export interface ContactFilters {
  search: string;
  source: ContactSource | '';
  /** A tag the contacts carry ('' = any). */
  tag: string;
  /** A custom field the contacts have ('' = any), and its value ('' = any value). */
  field: string;
  value: string;
  page: number;
  limit: number;
}

export const DEFAULT_FILTERS: ContactFilters = { search: '', source: '', tag: '', field: '', value: '', page: 1, limit: DEFAULT_PAGE_SIZE };

function positiveInt(value: string | null): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 ? n : null;
}

export function parseFilters(params: URLSearchParams): ContactFilters {
  const source = params.get('source') ?? '';
  const field = (params.get('field') ?? '').trim();
  const limit = positiveInt(params.get('limit'));
  return {
    search: (params.get('search') ?? '').trim(),
    source: (CONTACT_SOURCES as readonly string[]).includes(source) ? (source as ContactSource) : '',
    tag: (params.get('tag') ?? '').trim(),
    field,
    // A value means nothing without its field (the API refuses it).
    value: field ? (params.get('value') ?? '').trim() : '',
    page: positiveInt(params.get('page')) ?? 1,
    limit: limit !== null && (PAGE_SIZES as readonly number[]).includes(limit) ? limit : DEFAULT_PAGE_SIZE,
  };
}

/** The URL query for the filters, defaults omitted (so plain /contacts is the default view). */
export function filtersToParams(filters: ContactFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.search) params.set('search', filters.search);
  if (filters.source) params.set('source', filters.source);
  setFilterParams(params, filters);
  if (filters.page > 1) params.set('page', String(filters.page));
  if (filters.limit !== DEFAULT_PAGE_SIZE) params.set('limit', String(filters.limit));
  return params;
}

function setFilterParams(params: URLSearchParams, filters: Pick<ContactFilters, 'tag' | 'field' | 'value'>): void {
  if (filters.tag) params.set('tag', filters.tag);
  if (filters.field) params.set('field', filters.field);
  if (filters.field && filters.value) params.set('value', filters.value);
}

/** A search, source, tag or custom-field filter is active (picks the 'No contacts found' empty state). */
export function hasActiveFilter(filters: Pick<ContactFilters, 'search' | 'source' | 'tag' | 'field'>): boolean {
  return filters.search !== '' || filters.source !== '' || filters.tag !== '' || filters.field !== '';
}

/** Changing the search, the source or the page size starts again at page 1. */
export function withFilter(filters: ContactFilters, change: Partial<Omit<ContactFilters, 'page'>>): ContactFilters {
  return { ...filters, ...change, page: 1 };
}

/** The API query for GET /api/contacts (and the export: search and source only). */
export function listQuery(filters: ContactFilters): string {
  const params = new URLSearchParams({ page: String(filters.page), limit: String(filters.limit) });
  if (filters.search) params.set('search', filters.search);
  if (filters.source) params.set('source', filters.source);
  setFilterParams(params, filters);
  return params.toString();
}

export function exportQuery(filters: Pick<ContactFilters, 'search' | 'source'>): string {
  const params = new URLSearchParams();
  if (filters.search) params.set('search', filters.search);
  if (filters.source) params.set('source', filters.source);
  return params.toString();
}

/** What the search box shows and what it last pushed to the URL itself. */
export interface SearchBoxState {
  input: string;
  /** The value the box's own debounce last put in the URL (null once that navigation has landed). */
  pushed: string | null;
}

/**
 * The box after the URL's search changed to `urlSearch`: a change from outside (a link, Back,
 * Clear Filters) replaces the text; the box's own push landing late (React Router 7 renders
 * navigations as transitions) keeps whatever was typed meanwhile.
 */
export function searchBoxAfterUrlChange(box: SearchBoxState, urlSearch: string): SearchBoxState {
  const outside = urlSearch !== box.pushed && box.input.trim() !== urlSearch;
  return { input: outside ? urlSearch : box.input, pushed: null };
}
