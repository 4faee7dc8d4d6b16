/**
 * The call logs API (SPEC §7 Voice, §2 Voice call logs / detail): the list (newest first,
 * numbered pages, search by the digits of the caller's or the business number), the detail, the
 * recording (fetched from Twilio with the user's credentials and handed back as audio).
 * Apply-contact: apply-contact.ts.
 */
import type { Contact } from '../../contract/contacts.js';
import { recordingMessages } from '../../contract/server-texts.js';
import {
  voiceMessages,
  type ListCallsQuery,
  type VoiceConversation,
  type VoiceConversationList,
} from '../../contract/voice.js';
import { integrationHealthReasons } from '../../contract/integration-health.js';
import { NotFoundError, ValidationError, BadGatewayError, ConflictError, ServiceUnavailableError, TooManyRequestsError } from '../errors.js';
import type { EmailDelivery } from '../../contract/email-delivery.js';
import { emailDeliveryView } from '../notifications/email-view.js';
import type { OutboundEmails } from '../notifications/emails.js';
import type { IntegrationHealthReports } from '../integrations/health.js';
import { TwilioError, type CallRepository, type StoredCall, type VoiceIntegrationReader } from './ports.js';
import type { ContactNameLookup, ContactNames } from '../contacts/names.js';
import { callerPhones, linkedContactIds, toVoiceConversation, toVoiceConversationListItem } from './view.js';

/** The contacts as apply-contact needs them (adapter: the contacts service and repository). */
export interface CallContacts {
  /** Which of these contact ids still exist. */
  existing(userId: string, ids: readonly string[]): Promise<Set<string>>;
  /** The contact holding this E.164 number, or null. */
  idByPhone(userId: string, phone: string): Promise<string | null>;
  get(userId: string, id: string): Promise<Contact | null>;
  create(userId: string, input: { name: string; phoneNumber: string; email: string }): Promise<Contact>;
  update(userId: string, id: string, input: { name?: string; phoneNumber: string; email?: string }): Promise<Contact>;
}

/** GET of a recording file with HTTP basic auth (adapter: fetch). */
export interface RecordingFetcher {
  fetch(url: string, auth: { username: string; password: string }): Promise<{ status: number; contentType: string; body: Buffer }>;
}

export class RecordingTooLargeError extends Error {
  constructor() {
    super('recording too large');
    this.name = 'RecordingTooLargeError';
  }
}

export const callsMessages = { ...recordingMessages, twilioNotConnected: voiceMessages.notConnected } as const;

export interface CallsDeps {
  calls: CallRepository;
  /** The linked contacts' current names (and the contacts holding the callers' numbers). */
  contacts: ContactNames;
  integrations: VoiceIntegrationReader;
  recordings: RecordingFetcher;
  /** Hosts a recording URL may point at (api.twilio.com and the configured Twilio API's host). */
  recordingHosts: readonly string[];
  /** The outbound-email queue (issue 34): the summary's Resend. */
  emails: Pick<OutboundEmails, 'queue' | 'resend'>;
  /** Credentials Twilio refused flag the integration, a fetch that works clears the flag (issue 34; never throws). */
  health?: IntegrationHealthReports;
}

/** Twilio's error code in an error answer ({code, message, more_info, status}), or undefined. */
function twilioCodeOf(body: Buffer): number | undefined {
  try {
    const code = (JSON.parse(body.toString('utf8')) as { code?: unknown } | null)?.code;
    return typeof code === 'number' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** Resends of one call's summary e-mail (each waits for the previous one to be sent or fail). */
export const SUMMARY_RESENDS_MAX = 5;

export function createCallsService(deps: CallsDeps) {
  async function load(userId: string, id: string): Promise<StoredCall> {
    const call = id && id.length <= 100 ? await deps.calls.get(userId, id) : null;
    if (!call) throw new NotFoundError(voiceMessages.callNotFound);
    return call;
  }

  /** One batch read per page: names resolved now, so a renamed contact shows its new name. */
  function live(userId: string, calls: readonly StoredCall[]): Promise<ContactNameLookup> {
    return deps.contacts.lookup(userId, { ids: linkedContactIds(calls), phones: callerPhones(calls) });
  }

  return {
    async list(userId: string, query: ListCallsQuery): Promise<VoiceConversationList> {
      const digits = query.search.replace(/\D/g, '');
      const { limit, page } = query;
      if (query.search !== '' && digits === '') {
        // Only digits can match a phone number.
        return { conversations: [], pagination: { currentPage: page, totalPages: 0, totalItems: 0, limit } };
      }
      const result = await deps.calls.page(userId, { page, limit, search: digits });
      const existing = await live(userId, result.items);
      return {
        conversations: result.items.map((c, i) => toVoiceConversationListItem(c, result.messageCounts[i] ?? c.messages.length, existing)),
        pagination: { currentPage: page, totalPages: Math.ceil(result.total / limit), totalItems: result.total, limit },
      };
    },

    async get(userId: string, id: string): Promise<VoiceConversation> {
      const call = await load(userId, id);
      return toVoiceConversation(call, await live(userId, [call]));
    },

    /**
     * Resend (issue 34): the call's summary e-mailed again through the outbound-email queue when
     * its e-mail failed or was sent, at most SUMMARY_RESENDS_MAX times; a click while it is on its
     * way changes nothing (idempotent per click). A call whose summary went out by e-mail before
     * the queue existed (an 'email' attempt in `deliveries`) gets its first queued send. Answers
     * the delivery as it now stands.
     */
    async resendSummary(userId: string, id: string): Promise<EmailDelivery> {
      const call = await load(userId, id);
      if (call.summaryStatus !== 'completed' || !call.summary) throw new ConflictError(voiceMessages.noSummary);
      const ref = { kind: 'call-summary', userId, subjectId: call.id } as const;
      try {
        const result = await deps.emails.resend(ref, SUMMARY_RESENDS_MAX);
        if (result.outcome === 'limit') throw new TooManyRequestsError(voiceMessages.summaryResendLimit);
        if (result.outcome !== 'none') return emailDeliveryView(result.delivery)!;
        if (!(call.deliveries ?? []).some((d) => d.method === 'email')) throw new ConflictError(voiceMessages.summaryNotEmailed);
        const first = await deps.emails.queue(ref);
        if (!first) throw new NotFoundError(voiceMessages.callNotFound);
        return emailDeliveryView(first)!;
      } catch (error) {
        if (error instanceof ConflictError || error instanceof TooManyRequestsError || error instanceof NotFoundError) throw error;
        // The queue (or the table) did not take it: nothing is on its way; the click can be repeated (503).
        throw new ServiceUnavailableError(voiceMessages.summaryResendUnavailable);
      }
    },

    /** The call's recording as MP3 bytes. */
    async recording(userId: string, id: string): Promise<{ contentType: string; body: Buffer }> {
      const call = await load(userId, id);
      if (!call.recording?.url) throw new NotFoundError(voiceMessages.noRecording);
      let url: URL;
      try {
        url = new URL(call.recording.url);
      } catch {
        throw new NotFoundError(voiceMessages.noRecording);
      }
      // The stored URL came from a (signed) Twilio callback; still, the user's credentials only go to Twilio.
      if (!deps.recordingHosts.includes(url.host) || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
        throw new NotFoundError(voiceMessages.noRecording);
      }
      if (!/\.(mp3|wav)$/i.test(url.pathname)) url.pathname = `${url.pathname}.mp3`;
      const integration = await deps.integrations.get(userId);
      if (!integration) throw new ValidationError(callsMessages.twilioNotConnected);
      let res;
      try {
        res = await deps.recordings.fetch(url.toString(), { username: integration.accountSid, password: integration.authToken });
      } catch (error) {
        if (error instanceof RecordingTooLargeError) throw new BadGatewayError(callsMessages.recordingTooLarge);
        throw new BadGatewayError(callsMessages.recordingUnavailable);
      }
      if (res.status === 404) throw new NotFoundError(voiceMessages.noRecording);
      if (res.status === 401 || res.status === 403) {
        // The stored credentials were refused (Twilio 20003): the integration needs attention.
        const refused = new TwilioError('auth', `recording fetch refused (${res.status})`, res.status, twilioCodeOf(res.body));
        const failure = await deps.health?.failed(userId, refused, integration.health);
        throw new BadGatewayError(failure ? integrationHealthReasons[failure.reason] : callsMessages.recordingUnavailable);
      }
      if (res.status < 200 || res.status >= 300) throw new BadGatewayError(callsMessages.recordingUnavailable);
      await deps.health?.recovered(userId, 'twilio-voice', integration.health);
      return { contentType: res.contentType.startsWith('audio/') ? res.contentType : 'audio/mpeg', body: res.body };
    },
  };
}

export type CallsService = ReturnType<typeof createCallsService>;
