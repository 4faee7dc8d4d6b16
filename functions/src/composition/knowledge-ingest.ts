/**
 * What both ingestion workers share: the source records (agent items), the chunk store, the
 * user's AI connection for embeddings and the log. Each worker adds only its own source type in
 * composition/file-ingest.ts or composition/url-scrape.ts, so its bundle carries only its own
 * extraction libraries. Only the workers import these modules: the request-path bundles never
 * carry any of it.
 */
import { logger } from '../adapters/logger.js';
import type { KnowledgeIngestDeps } from '../domain/knowledge/ingest.js';
import { knowledgeSources } from './agents.js';
import { aiConnector } from './ai.js';
import { chunkStore, indexSnapshots } from './knowledge.js';

export function ingestDeps(): Omit<KnowledgeIngestDeps, 'files' | 'pages'> {
  return {
    sources: knowledgeSources(),
    chunks: chunkStore(),
    ai: aiConnector(),
    snapshots: indexSnapshots(),
    log: {
      info: (message, fields) => logger.info(message, { ...fields }),
      warn: (message, fields) => logger.warn(message, { ...fields }),
    },
  };
}
