/**
 * Wires the knowledge entries (agent child items + one chunk each, embedded with the owner's
 * ChatGPT connection) and the unanswered questions; their routes are served by the agent-chat group.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoAgentRepository } from '../adapters/dynamo/agents.js';
import { DynamoChunkStore } from '../adapters/dynamo/knowledge-chunks.js';
import { DynamoUnansweredStore } from '../adapters/dynamo/unanswered.js';
import { logger } from '../adapters/logger.js';
import { createAgentKnowledge } from '../domain/agents/entries.js';
import { once } from '../lib/once.js';
import { aiConnector } from './ai.js';

export const agentKnowledge = once(() =>
  createAgentKnowledge({
    agents: new DynamoAgentRepository(documentClient(), config().TABLE_NAME),
    chunks: new DynamoChunkStore(documentClient(), config().TABLE_NAME),
    ai: aiConnector(),
    unanswered: new DynamoUnansweredStore(documentClient(), config().TABLE_NAME),
    onError: (message, error) => logger.error(message, { error: error as Error }),
  }),
);
