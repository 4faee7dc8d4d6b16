/**
 * Wires the voice-relay WebSocket function (issue 16): the relay session over the call table, the
 * connection records and turn state, API Gateway's connection-posting API, the handshake check
 * (X-Twilio-Signature with the user's Twilio auth token), the agents with knowledge and HTTP
 * tools, and the streaming ChatGPT connection.
 *
 * Bundle budget (≤ 400 KB, cold start on a live call): nothing here may pull the openai SDK, so
 * the AI connection is composition/ai-stream.ts's fetch-based one (never ai.ts), and the agent
 * reader and tool executor are built here (agent-chat.ts wires ai.ts).
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { ApiGatewayRelayConnections } from '../adapters/aws/relay-connections.js';
import { DynamoAgentReader } from '../adapters/dynamo/agents.js';
import { DynamoLiveCallItems } from '../adapters/dynamo/voice-calls.js';
import { DynamoRelayConnectionStore, DynamoRelayTurnState } from '../adapters/dynamo/voice-relay.js';
import { HttpToolExecutor } from '../adapters/http-tools/executor.js';
import { logger } from '../adapters/logger.js';
import { guardedFetch } from '../adapters/outbound/guarded-fetch.js';
import { verifyTwilioSignature } from '../adapters/twilio/signature.js';
import { createRelaySession } from '../domain/voice/relay/session.js';
import { once } from '../lib/once.js';
import { streamingAiConnector } from './ai-stream.js';
import { agentBookings } from './agent-bookings.js';
import { knowledgeRetriever } from './knowledge.js';
import { secretBox } from './secrets.js';
import { voiceIntegrationReader } from './twilio.js';
import { unansweredRecorder } from './unanswered.js';

const logError = (message: string, error: unknown, data?: Record<string, unknown>) => logger.error(message, { error: error as Error, ...data });

export const relaySession = once(() => {
  const { TABLE_NAME, AWS_REGION, VOICE_RELAY_CONNECTIONS_URL, TOOL_TIMEOUT_MS } = config();
  const db = documentClient();
  return createRelaySession({
    // Built here: composition/voice.ts also brings the voice-settings repository, unused by the relay.
    calls: new DynamoLiveCallItems(db, TABLE_NAME),
    connections: new DynamoRelayConnectionStore(db, TABLE_NAME),
    posts: new ApiGatewayRelayConnections({ endpoint: VOICE_RELAY_CONNECTIONS_URL, region: AWS_REGION }),
    turns: new DynamoRelayTurnState(db, TABLE_NAME),
    handshake: {
      async verify(userId, url, signature) {
        const integration = await voiceIntegrationReader().get(userId);
        // Twilio signs the WebSocket handshake over the URL alone (no form parameters).
        return !!integration?.isActive && verifyTwilioSignature(integration.authToken, signature, url, {});
      },
    },
    // The reader only: the repository's writes are not on a call's path.
    agents: new DynamoAgentReader(db, TABLE_NAME),
    ai: streamingAiConnector(),
    retriever: knowledgeRetriever(),
    tools: new HttpToolExecutor({ fetch: guardedFetch, secrets: secretBox(), timeoutMs: TOOL_TIMEOUT_MS, onError: logError }),
    // The agent's built-in booking tools (issue 30), for the caller's number.
    bookings: agentBookings(),
    relayUrl: () => config().VOICE_RELAY_URL,
    recordUnanswered: unansweredRecorder(),
    onError: logError,
    onInfo: (message, data) => logger.info(message, { ...data }),
  });
});
