/** Wires the agent-chat group: the agent runtime over the agents table, the user's ChatGPT connection, retrieval and HTTP tools. */
import { config } from '../config.js';
import { HttpToolExecutor } from '../adapters/http-tools/executor.js';
import { logger } from '../adapters/logger.js';
import { guardedFetch } from '../adapters/outbound/guarded-fetch.js';
import { createAgentChat } from '../domain/agents/runtime/chat.js';
import { once } from '../lib/once.js';
import { agentRepository } from './agents.js';
import { aiConnector } from './ai.js';
import { knowledgeRetriever } from './knowledge.js';
import { secretBox } from './secrets.js';

const logError = (message: string, error: unknown) => logger.error(message, { error: error as Error });

export const toolExecutor = once(
  () => new HttpToolExecutor({ fetch: guardedFetch, secrets: secretBox(), timeoutMs: config().TOOL_TIMEOUT_MS, onError: logError }),
);

export const agentChat = once(() =>
  createAgentChat({
    agents: agentRepository(),
    ai: aiConnector(),
    retriever: knowledgeRetriever(),
    tools: toolExecutor(),
    onError: logError,
  }),
);
