/** WhatsApp conversations, their messages and the inbox settings over the single table (DynamoDB only). */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoConversationRepository } from '../adapters/dynamo/conversations.js';
import { DynamoInboxSettingsRepository } from '../adapters/dynamo/inbox-settings.js';
import { DynamoMessageRepository } from '../adapters/dynamo/messages.js';
import { DynamoWaitingReplies } from '../adapters/dynamo/waiting-replies.js';
import type { ConversationRepository, InboxSettingsRepository, MessageRepository } from '../domain/conversations/ports.js';
import { once } from '../lib/once.js';
import { privacySettingsStore } from './privacy-settings-store.js';

// Issue 33: every message and conversation written is stamped with the account's retention (the shared store's minute cache).
const messages = once(() => new DynamoMessageRepository(documentClient(), config().TABLE_NAME, Date.now, false, privacySettingsStore()));
const conversations = once(() => new DynamoConversationRepository(documentClient(), config().TABLE_NAME, messages()));

export const messageRepository = (): MessageRepository => messages();
export const conversationRepository = (): ConversationRepository => conversations();
export const inboxSettingsRepository = once((): InboxSettingsRepository => new DynamoInboxSettingsRepository(documentClient(), config().TABLE_NAME));
/** Customers' messages that got no answer, and the provider incidents (issue 34, domain/conversations/waiting.ts). */
export const waitingReplies = once(() => new DynamoWaitingReplies(documentClient(), config().TABLE_NAME));
