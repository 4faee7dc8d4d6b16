/**
 * Knowledge wiring for the request path: the chunk store (DynamoDB), the index snapshots (S3) and
 * the hybrid retriever with its per-warm-Lambda index cache. Kept free of the extraction libraries
 * (PDF, Word, HTML): those are wired for the ingestion workers only, in knowledge-ingest.ts.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { S3IndexSnapshots } from '../adapters/aws/index-snapshots.js';
import { DynamoChunkStore } from '../adapters/dynamo/knowledge-chunks.js';
import { logger } from '../adapters/logger.js';
import { CachedKnowledgeRetriever } from '../domain/knowledge/retrieval.js';
import { once } from '../lib/once.js';

export const chunkStore = once(() => new DynamoChunkStore(documentClient(), config().TABLE_NAME));

/** Index snapshots in the uploads bucket (knowledge-index/…): a cold function loads an agent's index in one GET. */
export const indexSnapshots = once(() => {
  const c = config();
  return new S3IndexSnapshots({ bucket: c.UPLOADS_BUCKET, region: c.AWS_REGION, endpoint: c.S3_ENDPOINT });
});

/** One per warm Lambda: its cache is what makes repeated searches of an agent cheap. */
export const knowledgeRetriever = once(
  () =>
    new CachedKnowledgeRetriever(chunkStore(), {
      snapshots: indexSnapshots(),
      onSnapshotError: (message, error) => logger.warn(message, { error: error as Error }),
    }),
);
