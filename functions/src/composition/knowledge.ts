/**
 * Knowledge wiring for the request path: the chunk store (DynamoDB) and the hybrid retriever
 * with its per-warm-Lambda index cache. Kept free of the extraction libraries (PDF, Word, HTML):
 * those are wired for the ingestion workers only, in knowledge-ingest.ts.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoChunkStore } from '../adapters/dynamo/knowledge-chunks.js';
import { CachedKnowledgeRetriever } from '../domain/knowledge/retrieval.js';
import { once } from '../lib/once.js';

export const chunkStore = once(() => new DynamoChunkStore(documentClient(), config().TABLE_NAME));

/** One per warm Lambda: its cache is what makes repeated searches of an agent cheap. */
export const knowledgeRetriever = once(() => new CachedKnowledgeRetriever(chunkStore()));
