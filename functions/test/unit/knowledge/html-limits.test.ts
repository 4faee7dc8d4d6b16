/**
 * Web pages with more elements than the DOM may hold are refused before linkedom builds it
 * (issue 28); the 5 MB download cap is the outbound guard's (after decompression).
 */
import { describe, expect, it } from 'vitest';
import { countStartTags, extractHtml, MAX_PAGE_ELEMENTS } from '../../../src/adapters/extract/html.js';
import { fetchWebPage, WEB_PAGE_DEFAULTS } from '../../../src/adapters/extract/web-page.js';
import type { GuardedResponse } from '../../../src/adapters/outbound/guarded-fetch.js';
import { KnowledgeSourceError, knowledgeMessages } from '../../../src/domain/knowledge/errors.js';

/** A page of exactly `elements` start tags (html, head, title, body and paragraphs). */
const page = (elements: number) => `<!doctype html><html><head><title>Prices</title></head><body>${'<p>item</p>'.repeat(elements - 4)}</body></html>`;
const htmlResponse = (body: string): GuardedResponse =>
  ({ status: 200, url: 'https://shop.example/prices', headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from(body) }) as unknown as GuardedResponse;

describe('web page element limit', () => {
  it('counts start tags only (not closing tags, comments, doctype or a "<" in text)', () => {
    expect(countStartTags('<!doctype html><html><body><p>a < b</p><!-- c --><br/><IMG src=x></body></html>')).toBe(5);
    // Counting stops just past the limit: a 5 MB page is not walked to the end to be refused.
    expect(countStartTags('<i>'.repeat(1_000), 10)).toBe(11);
  });

  it('refuses a page with more than 100,000 elements before parsing it, with the reason', async () => {
    const huge = page(MAX_PAGE_ELEMENTS + 1);
    expect(countStartTags(huge)).toBe(MAX_PAGE_ELEMENTS + 1);
    expect(huge.length).toBeLessThan(WEB_PAGE_DEFAULTS.maxBytes);

    const started = performance.now();
    expect(() => extractHtml(huge, 'https://shop.example/prices')).toThrow(KnowledgeSourceError);
    expect(() => extractHtml(huge, 'https://shop.example/prices')).toThrow(knowledgeMessages.pageTooComplex(100_000));
    // Through the URL flow's page reader as well.
    await expect(fetchWebPage('https://shop.example/prices', async () => htmlResponse(huge))).rejects.toThrow('The page is too large to read: it has more than 100,000 HTML elements');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('reads a page at the limit (parsing 100,000 elements takes seconds: the check is on the count, the parse on a smaller page)', () => {
    expect(countStartTags(page(MAX_PAGE_ELEMENTS), MAX_PAGE_ELEMENTS)).toBe(MAX_PAGE_ELEMENTS);
    const extracted = extractHtml(page(2_000), 'https://shop.example/prices');
    expect(extracted.title).toBe('Prices');
    expect(extracted.blocks.length).toBe(2_000 - 4);
  });
});
