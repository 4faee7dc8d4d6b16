/**
 * Wires the whatsapp-inbound worker: conversations and messages (DynamoDB), contacts, the agents
 * and their runtime (knowledge retrieval, HTTP tools, the user's ChatGPT connection), plan usage,
 * and the Graph API with the user's WhatsApp connection.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoConversationRepository } from '../adapters/dynamo/conversations.js';
import { DynamoMessageRepository } from '../adapters/dynamo/messages.js';
import { DynamoAgentFileMedia } from '../adapters/dynamo/agent-file-media.js';
import { logger } from '../adapters/logger.js';
import { S3InboundBodyStore } from '../adapters/whatsapp/inbound-bodies.js';
import { createNoAnswer } from '../domain/conversations/waiting.js';
import { createInboundPipeline } from '../domain/whatsapp/inbound.js';
import { newId } from '../lib/ids.js';
import { once } from '../lib/once.js';
import { agentReader, toolExecutor } from './agent-runtime.js';
import { transcribingAiConnector } from './ai-inbound.js';
import { agentBookings } from './agent-bookings.js';
import { contactService } from './contacts.js';
import { privacySettingsStore } from './privacy-settings-store.js';
import { inboxSettingsRepository, waitingReplies } from './conversations.js';
import { integrationHealthWithEmail } from './integration-health-email.js';
import { knowledgeRetriever } from './knowledge.js';
import { escalationAlerts } from './notifications.js';
import { waitingAnswerQueue } from './queues.js';
import { usageService } from './usage.js';
import { uploadsPresigner } from './user-view.js';
import { graphClient, whatsappCredentials } from './whatsapp.js';
import { graphMediaClient, mediaObjects } from './whatsapp-media.js';
import { mediaUnderstanding } from './media-understanding.js';
import { businessLocationStore } from './business-location.js';
import { unansweredRecorder } from './unanswered.js';
import { optOutStore } from './opt-out-store.js';
import { accountNotices } from './privacy-notices.js';

/** Worker timeout is 60 s (routes.ts): the agent gets 40 s, the rest is storage and the send. */
const REPLY_BUDGET_MS = 40_000;

export const inboundPipeline = once(() => {
  // Counter ADDs batched per delivery (flushed by the pipeline before it finishes).
  const messages = new DynamoMessageRepository(documentClient(), config().TABLE_NAME, Date.now, true, privacySettingsStore());
  // A key OpenAI refuses flags the ChatGPT integration: in-app, and e-mailed (issue 34).
  const ai = transcribingAiConnector(integrationHealthWithEmail());
  // A customer's media: transcripts, document texts, photos for the model (issue 31).
  const understanding = mediaUnderstanding({ ai, objects: mediaObjects() });
  return createInboundPipeline({
    conversations: new DynamoConversationRepository(documentClient(), config().TABLE_NAME, messages),
    messages,
    contacts: contactService(),
    agents: agentReader(),
    ai,
    retriever: knowledgeRetriever(),
    tools: toolExecutor(),
    // The agent's built-in booking tools (issue 30), for the customer's WhatsApp number.
    bookings: agentBookings(),
    usage: usageService(),
    graph: graphClient(),
    // The files the agent sends: read from the uploads bucket, uploaded to Meta (issue 31).
    mediaUpload: { client: graphMediaClient(), objects: mediaObjects() },
    // An agent file uploaded to Meta is sent again by its media id within Meta's 30 days (issue 31).
    fileMedia: new DynamoAgentFileMedia(documentClient(), config().TABLE_NAME),
    // A customer's media fetched from the Graph media API, stored in the uploads bucket and understood before the answer (issue 31).
    media: { graphMedia: graphMediaClient(), objects: mediaObjects(), understanding, onFailure: (message, error) => logger.warn(message, { error: error as Error }) },
    understanding,
    // The business location the agent's send_location tool sends (issue 31).
    businessLocations: businessLocationStore(),
    // The owner's alert when the agent escalates: in-app, e-mail, WhatsApp (issue 17).
    alerts: escalationAlerts(),
    inboxSettings: inboxSettingsRepository(),
    recordUnanswered: unansweredRecorder(),
    // A message the model could not answer waits with a marker, the owner told once per outage; "Answer waiting messages" runs here too (issue 34).
    noAnswer: createNoAnswer({ store: waitingReplies(), incidents: waitingReplies(), alerts: escalationAlerts(), onError: (message, error) => logger.warn(message, { error: error as Error }) }),
    waiting: waitingReplies(),
    // A message written during a person's pause is answered when the pause ends by itself (issue 29).
    resumeChecks: waitingAnswerQueue(),
    // A token Meta refused flags the WhatsApp integration and notifies the owner once: in-app, and e-mailed (issue 34).
    health: integrationHealthWithEmail(),
    // The AI notice on a conversation's first agent message, and the customers' stop and start words (issue 33).
    privacy: { notices: accountNotices(), optOuts: optOutStore() },
    connection: whatsappCredentials,
    newId: (now) => newId(now),
    replyBudgetMs: REPLY_BUDGET_MS,
    onError: (message, error) => logger.error(message, { error: error as Error }),
  });
});

/** Parked bodies of oversized deliveries (the uploads bucket; the webhook wrote them). */
export const inboundBodies = once(() => new S3InboundBodyStore(uploadsPresigner()));
