/**
 * Wires the conversations and messages groups: the conversation and message repositories
 * (DynamoDB), replies sent on WhatsApp (the integration record + the secret box for the user's
 * connection, the Graph API client over fetch) and the plan's message usage. Nothing else: no agent runtime, no
 * OpenAI, no queues (the inbound worker wires those).
 */
import { logger } from '../adapters/logger.js';
import { createConversationService } from '../domain/conversations/service.js';
import { createWhatsAppReplyChannels } from '../domain/whatsapp/reply-channel.js';
import { newId } from '../lib/ids.js';
import { once } from '../lib/once.js';
import { conversationRepository, messageRepository } from './conversations.js';
import { escalationAlerts } from './notifications.js';
import { usageService } from './usage.js';
import { graphClient, whatsappCredentials } from './whatsapp.js';

export const conversationService = once(() =>
  createConversationService({
    conversations: conversationRepository(),
    messages: messageRepository(),
    channels: createWhatsAppReplyChannels({ connection: whatsappCredentials, graph: graphClient() }),
    usage: usageService(),
    // The owner's escalation alert: in-app, e-mail, WhatsApp (issue 17).
    alerts: escalationAlerts(),
    newId: () => newId(),
    onError: (message, error) => logger.error(message, { error: error as Error }),
  }),
);
