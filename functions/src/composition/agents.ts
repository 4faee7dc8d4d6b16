/**
 * Wires the agents group: the agent items (DynamoDB), the documents (uploads bucket through
 * presigned URLs), the ingestion queues (SQS), tool header sealing and chunk deletion.
 * agentRepository() and knowledgeSources() are also the read side of the runtime and the
 * ingestion workers.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoAgentRepository, DynamoKnowledgeSources } from '../adapters/dynamo/agents.js';
import { DynamoChunkStore } from '../adapters/dynamo/knowledge-chunks.js';
import { deletingSnapshots } from '../adapters/aws/index-snapshots.js';
import { DynamoUnansweredStore } from '../adapters/dynamo/unanswered.js';
import { DynamoUserRepository } from '../adapters/dynamo/users.js';
import { logger } from '../adapters/logger.js';
import { S3AgentFiles } from '../adapters/s3-agent-files.js';
import { createAgentService } from '../domain/agents/service.js';
import { once } from '../lib/once.js';
import { knowledgeJobs } from './queues.js';
import { secretBox } from './secrets.js';
import { uploadsPresigner } from './user-view.js';

// Marked pure so a bundle drops what it never calls: the ingestion workers read agents and
// sources through this module and never bundle the agent service, the SQS sender or its client.
export const agentRepository = /* @__PURE__ */ once(() => new DynamoAgentRepository(documentClient(), config().TABLE_NAME));

export const knowledgeSources = /* @__PURE__ */ once(() => new DynamoKnowledgeSources(documentClient(), config().TABLE_NAME));

export const agentService = /* @__PURE__ */ once(() => {
  const files = new S3AgentFiles(uploadsPresigner());
  return createAgentService({
    agents: agentRepository(),
    // Lazy: most routes never seal a header, so the KMS client is built on first use.
    secrets: { seal: (plain) => secretBox().seal(plain), open: (sealed) => secretBox().open(sealed) },
    // The chunk store itself rather than knowledge.ts's chunkStore(): that module also builds the
    // retriever (and its cache library), which this bundle (400 KB budget) never uses.
    // Deleting a source or the agent also deletes the agent's index snapshots (same presigned DELETE as documents).
    chunks: deletingSnapshots(new DynamoChunkStore(documentClient(), config().TABLE_NAME), (key) => files.delete(key)),
    objects: files,
    jobs: knowledgeJobs(),
    profiles: new DynamoUserRepository(documentClient(), config().TABLE_NAME),
    unanswered: new DynamoUnansweredStore(documentClient(), config().TABLE_NAME),
    onError: (message, error) => logger.error(message, { error: error as Error }),
  });
});
