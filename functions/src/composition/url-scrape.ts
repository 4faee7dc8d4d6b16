/** Wires the url-scrape worker: pages fetched through the outbound guard, readable text via Readability. */
import { fetchWebPage } from '../adapters/extract/web-page.js';
import { guardedFetch } from '../adapters/outbound/guarded-fetch.js';
import { createKnowledgeIngestion } from '../domain/knowledge/ingest.js';
import { once } from '../lib/once.js';
import { ingestDeps } from './knowledge-ingest.js';

export const urlIngestion = once(() => createKnowledgeIngestion({ ...ingestDeps(), pages: { fetch: (link) => fetchWebPage(link, guardedFetch) } }));
