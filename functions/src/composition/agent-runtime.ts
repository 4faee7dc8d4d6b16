/**
 * What every function that runs an agent reads it with (the Test Agent chat, the Gather call
 * loop, the WhatsApp worker): the agents reader and the HTTP tool executor. Apart from
 * agent-chat.ts so the call loop's bundle (300 KB budget, first contact) does not carry the chat
 * runtime and its contract schemas.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoAgentReader } from '../adapters/dynamo/agents.js';
import { HttpToolExecutor } from '../adapters/http-tools/executor.js';
import { logger } from '../adapters/logger.js';
import { guardedFetch } from '../adapters/outbound/guarded-fetch.js';
import { once } from '../lib/once.js';
import { secretBox } from './secrets.js';

const logError = (message: string, error: unknown) => logger.error(message, { error: error as Error });

export const toolExecutor = once(
  () => new HttpToolExecutor({ fetch: guardedFetch, secrets: secretBox(), timeoutMs: config().TOOL_TIMEOUT_MS, onError: logError }),
);

/** Reads only (the agents and their knowledge): the full repository stays in the agents group. */
export const agentReader = once(() => new DynamoAgentReader(documentClient(), config().TABLE_NAME));
