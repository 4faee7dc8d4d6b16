/**
 * Wires the voice-conversations group: the call items, the linked contacts' current names, and
 * the user's Twilio credentials for the recording proxy (plain fetch with basic auth, only to
 * api.twilio.com or the configured TWILIO_API_URL's host). No Twilio or OpenAI SDK, and not the
 * contacts service (apply-contact runs in the contacts group: composition/call-contacts.ts). The
 * summary's Resend queues it on the outbound-email queue (issue 34; no SES client).
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoContactNames } from '../adapters/dynamo/contact-names.js';
import { DynamoIntegrationRepository } from '../adapters/dynamo/integrations.js';
import { createVoiceIntegrationReader } from '../domain/voice/twilio-integration.js';
import { RecordingTooLargeError, createCallsService, type RecordingFetcher } from '../domain/voice/calls.js';
import { once } from '../lib/once.js';
import { integrationHealth } from './integration-health.js';
import { secretBox } from './secrets.js';
import { callRepository } from './voice.js';
import { outboundEmails } from './outbound-email.js';

/** Lambda answers are capped at 6 MB; base64 adds a third. */
export const RECORDING_MAX_BYTES = 4 * 1024 * 1024;
const RECORDING_TIMEOUT_MS = 15_000;

export const fetchRecording: RecordingFetcher['fetch'] = async (url, auth) => {
  const res = await fetch(url, {
    headers: { authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}` },
    redirect: 'follow',
    signal: AbortSignal.timeout(RECORDING_TIMEOUT_MS),
  });
  if (!res.ok) {
    // A refusal's small JSON body names Twilio's code (20003): the credentials need attention (issue 34).
    if (res.status === 401 || res.status === 403) {
      const text = await res.text().catch(() => '');
      return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: Buffer.from(text.slice(0, 4096)) };
    }
    await res.body?.cancel();
    return { status: res.status, contentType: '', body: Buffer.alloc(0) };
  }
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > RECORDING_MAX_BYTES) {
    await res.body?.cancel();
    throw new RecordingTooLargeError();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += (chunk as Uint8Array).byteLength;
    if (size > RECORDING_MAX_BYTES) throw new RecordingTooLargeError();
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: Buffer.concat(chunks) };
};

export const callsService = once(() => {
  const c = config();
  const integrations = new DynamoIntegrationRepository(documentClient(), c.TABLE_NAME);
  const hosts = ['api.twilio.com', ...(c.TWILIO_API_URL ? [new URL(c.TWILIO_API_URL).host] : [])];
  return createCallsService({
    calls: callRepository(),
    integrations: createVoiceIntegrationReader({ integrations, secrets: secretBox() }),
    recordings: { fetch: fetchRecording },
    recordingHosts: hosts,
    contacts: new DynamoContactNames(documentClient(), c.TABLE_NAME),
    emails: outboundEmails(),
    // Credentials Twilio refused flag the Twilio integration (issue 34).
    health: integrationHealth(),
  });
});
