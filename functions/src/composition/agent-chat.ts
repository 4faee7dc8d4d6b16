/**
 * Wires the agent-chat group: the agent runtime over the agents table, the user's ChatGPT
 * connection, retrieval and HTTP tools.
 *
 * The agents reader (agent-runtime.ts) rather than agents.ts's agentRepository(): that module
 * also wires the agents group's S3 presigner and SQS client at load time, which this bundle
 * (400 KB budget, 150 ms load) never uses.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoUserRepository } from '../adapters/dynamo/users.js';
import { dynamoAgentTestMarker } from '../adapters/dynamo/getting-started.js';
import { logger } from '../adapters/logger.js';
import { createAgentChat } from '../domain/agents/runtime/chat.js';
import { whatsappToolsRuntime } from '../domain/agents/runtime/whatsapp-tools.js';
import { once } from '../lib/once.js';
import { aiConnector } from './ai.js';
import { agentBookings } from './agent-bookings.js';
import { agentReader, toolExecutor } from './agent-runtime.js';
import { businessLocationStore } from './business-location.js';
import { knowledgeRetriever } from './knowledge.js';
import { unansweredRecorder } from './unanswered.js';

const logError = (message: string, error: unknown) => logger.error(message, { error: error as Error });

export const agentChat = once(() =>
  createAgentChat({
    agents: agentReader(),
    ai: aiConnector(),
    retriever: knowledgeRetriever(),
    tools: toolExecutor(),
    // The agent's built-in booking tools (issue 30); the test chat books for the owner's profile phone.
    bookings: agentBookings(),
    // The send_location tool's business location (issue 31); the test chat shows what would be sent.
    businessLocations: businessLocationStore(),
    whatsappTools: whatsappToolsRuntime,
    users: new DynamoUserRepository(documentClient(), config().TABLE_NAME),
    recordUnanswered: unansweredRecorder(),
    markTested: dynamoAgentTestMarker(documentClient(), config().TABLE_NAME),
    onError: logError,
  }),
);
