/**
 * Wires the conversations and messages groups: the conversation and message repositories
 * (DynamoDB), replies sent on WhatsApp (the integration record + the secret box for the user's
 * connection, the Graph API client over fetch) and the plan's message usage. Nothing else: no agent runtime, no
 * OpenAI (the inbound worker wires those); the one queue is whatsapp-inbound's "Answer waiting
 * messages" job (issue 34), sent only by that route.
 */
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoContactNames } from '../adapters/dynamo/contact-names.js';
import { logger } from '../adapters/logger.js';
import { S3Attachments } from '../adapters/s3-attachments.js';
import { config } from '../config.js';
import { createConversationService } from '../domain/conversations/service.js';
import { createWaitingAnswers } from '../domain/conversations/waiting.js';
import { createWhatsAppReplyChannels } from '../domain/whatsapp/reply-channel.js';
import { newId } from '../lib/ids.js';
import { once } from '../lib/once.js';
import { apiKeyRepository } from './api-keys.js';
import { optOutStore } from './opt-out-store.js';
import { teamMembers } from './team-members.js';
import { conversationRepository, inboxSettingsRepository, messageRepository, waitingReplies } from './conversations.js';
import { integrationHealthWithEmail } from './integration-health-email.js';
import { escalationAlerts } from './notifications.js';
import { waitingAnswerQueue } from './queues.js';
import { usageService } from './usage.js';
import { uploadsPresigner } from './user-view.js';
import { graphClient, whatsappCredentials } from './whatsapp.js';
import { graphMediaClient, mediaObjects } from './whatsapp-media.js';

/** "Answer waiting messages" (issue 34): the conversations' messages the model could not answer, queued for the inbound worker. */
export const waitingAnswers = once(() =>
  createWaitingAnswers({
    conversations: conversationRepository(),
    messages: messageRepository(),
    store: waitingReplies(),
    queue: waitingAnswerQueue(),
    inboxSettings: inboxSettingsRepository(),
  }),
);

export const conversationService = once(() =>
  createConversationService({
    conversations: conversationRepository(),
    messages: messageRepository(),
    // A token Meta refused flags the WhatsApp integration (issue 34), as the agent's replies do.
    // An owner's attachment is uploaded to Meta's media endpoint, then sent by its id (issue 31).
    channels: createWhatsAppReplyChannels({ connection: whatsappCredentials, graph: graphClient(), media: graphMediaClient(), health: integrationHealthWithEmail() }),
    // Owners' attachments: staged browser uploads and our copies beside customers' media (issue 31).
    attachments: new S3Attachments(uploadsPresigner(), mediaObjects()),
    // The inbox's and the Message Hub's links to media in our bucket (issue 31): presigned, no request.
    mediaLinks: mediaObjects(),
    usage: usageService(),
    inboxSettings: inboxSettingsRepository(),
    // The owner's escalation alert: in-app, e-mail, WhatsApp (issue 17).
    alerts: escalationAlerts(),
    // Cards and the conversation name the contact as the directory does now (issue 17).
    contactNames: new DynamoContactNames(documentClient(), config().TABLE_NAME),
    newId: () => newId(),
    onError: (message, error) => logger.error(message, { error: error as Error }),
    // The board's "Answer waiting messages" banner (issue 34); "Return to AI" hands over what was left unanswered (issue 29).
    waiting: waitingAnswers(),
    // Issue 33: a template to an opted-out customer is refused; the conversation shows the opt-out.
    optOuts: optOutStore(),
    // Who a conversation may be assigned to, and who sent a person's message (issue 32).
    senders: { members: teamMembers(), apiKeys: apiKeyRepository() },
  }),
);
