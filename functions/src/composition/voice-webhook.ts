/**
 * Wires the voice-webhook group: the call loop over the voice storage, the agents and their
 * runtime (knowledge retrieval, HTTP tools, the user's ChatGPT connection), plan minutes, the
 * caller's contact by phone, the call-summary queue; and the X-Twilio-Signature verifier (the
 * user's Twilio integration's auth token), run by the HTTP wrapper before the routes. Streamed
 * calls (issue 16): the relay's URL, the warm-up of its function (asynchronous Lambda Invoke) and
 * the hand-over claim on the call item.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { createRelayWarmer } from '../adapters/aws/relay-warmer.js';
import { DynamoActivityCounters } from '../adapters/dynamo/activity.js';
import { DynamoCallHandoffs } from '../adapters/dynamo/call-handoffs.js';
import { DynamoContactNames } from '../adapters/dynamo/contact-names.js';
import { logger } from '../adapters/logger.js';
import { deleteTwilioRecording } from '../adapters/twilio/account-api.js';
import { createTwilioWebhookVerifier } from '../adapters/twilio/webhook-verifier.js';
import { createCallLoop, type CallContacts } from '../domain/voice/call-loop.js';
import { newId } from '../lib/ids.js';
import { once } from '../lib/once.js';
import { agentReader, toolExecutor } from './agent-runtime.js';
import { aiConnector } from './ai.js';
import { knowledgeRetriever } from './knowledge.js';
import { callSummaryQueue } from './queues.js';
import { voiceIntegrationReader } from './twilio.js';
import { usageService } from './usage.js';
import { callRepository, isErasedCallSid, voiceSettingsRepository } from './voice.js';
import { notificationsOnly } from './notification-store.js';
import { unansweredRecorder } from './unanswered.js';
import { agentBookings } from './agent-bookings.js';
import { accountNotices } from './privacy-notices.js';

/** TwiML for a call script (the call loop's answers). */
export { renderTwiml } from '../adapters/twilio/twiml.js';

export const twilioWebhookVerifier = once(() =>
  createTwilioWebhookVerifier({
    integrations: voiceIntegrationReader(),
    appUrl: () => config().APP_URL,
    onRefused: (path) => logger.warn('Twilio webhook refused: signature, user or integration', { path }),
  }),
);

/**
 * The contact holding the caller's number (lookup only: a call never creates a contact): the
 * projected names reader, not the contacts repository (~8 KB of a first-contact bundle).
 */
const callContacts = once((): CallContacts => {
  const contacts = new DynamoContactNames(documentClient(), config().TABLE_NAME, { consistentRead: true });
  return {
    async findByPhone(userId, phone) {
      const contact = (await contacts.lookup(userId, { ids: [], phones: [phone] })).byPhone.get(phone);
      return contact ? { _id: contact.id, name: contact.name, phoneNumber: contact.phoneNumber } : null;
    },
  };
});

/** {APP_URL}/api/webhooks/twilio/{userId}/voice… : the URLs Twilio calls (and signs). */
export const voiceWebhookBase = (userId: string) => `${new URL(config().APP_URL).origin}/api/webhooks/twilio/${encodeURIComponent(userId)}/voice`;

export const callLoop = once(() =>
  createCallLoop({
    calls: callRepository(),
    settings: voiceSettingsRepository(),
    agents: agentReader(),
    ai: aiConnector(),
    retriever: knowledgeRetriever(),
    tools: toolExecutor(),
    // The agent's built-in booking tools (issue 30), for the caller's number.
    bookings: agentBookings(),
    usage: usageService(),
    contacts: callContacts(),
    // The AI and recording notices said first (issue 33).
    notices: accountNotices(),
    // An erased call's late recording is deleted at Twilio with the integration's credentials (issue 33).
    erasedCalls: {
      isErased: isErasedCallSid,
      async deleteRecording(userId, recordingSid) {
        const twilio = await voiceIntegrationReader().get(userId);
        if (!twilio) throw new Error('No Twilio integration to delete the recording with');
        await deleteTwilioRecording({ baseUrl: config().TWILIO_API_URL }, twilio, recordingSid);
      },
    },
    queue: callSummaryQueue(),
    activity: new DynamoActivityCounters(documentClient(), config().TABLE_NAME),
    urls: (userId) => ({ gather: `${voiceWebhookBase(userId)}/gather`, recording: `${voiceWebhookBase(userId)}/recording` }),
    relay: {
      url: () => config().VOICE_RELAY_URL,
      actionUrl: (userId) => `${voiceWebhookBase(userId)}/relay-action`,
      warmer: createRelayWarmer({
        functionName: config().VOICE_RELAY_FUNCTION,
        region: config().AWS_REGION,
        endpoint: config().LAMBDA_ENDPOINT,
        onError: (message, error) => logger.warn(message, { error: error as Error }),
      }),
    },
    handoffs: new DynamoCallHandoffs(documentClient(), config().TABLE_NAME),
    alerts: notificationsOnly(),
    recordUnanswered: unansweredRecorder(),
    newId: (now) => newId(now),
    onError: (message, error, data) => logger.error(message, { error: error as Error, ...data }),
    onInfo: (message, data) => logger.info(message, { ...data }),
  }),
);
