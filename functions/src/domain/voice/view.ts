/**
 * A stored call as the API shows it (SPEC §3 Voice conversation): the internal fields (userId,
 * the settings snapshot, silences, endedByUs, the recording's URL, billed minutes) stay inside;
 * `hasRecording` says whether GET …/{id}/recording can play one. A contact that was deleted
 * since the call keeps its name and number on the call but loses its id (`_id: null`), so the
 * screen links to a contact search instead of a 404. Issue 17: given the contacts' current entries
 * (a ContactNameLookup), the call names its contact as the directory does now, and a caller saved
 * as a contact after the call is named by that contact.
 */
import type { VoiceConversation, VoiceConversationListItem } from '../../contract/voice.js';
import { E164_RE } from '../../contract/voice-messages.js';
import type { ContactNameLookup } from '../contacts/names.js';
import type { StoredCall } from './ports.js';
import { emailDeliveryView } from '../notifications/email-view.js';

/**
 * Which linked contacts still exist (ids), or their current entries (a lookup); undefined = do
 * not check (keep the contact as stored).
 */
export type LiveContacts = ReadonlySet<string> | ContactNameLookup | undefined;

function contactOf(call: StoredCall, live: LiveContacts): VoiceConversation['contact'] {
  const c = call.contact;
  if (live && 'byId' in live) {
    const current = (c?._id ? live.byId.get(c._id) : undefined) ?? live.byPhone.get(call.phoneNumber);
    if (current) return { _id: current.id, name: current.name, phoneNumber: current.phoneNumber || c?.phoneNumber || call.phoneNumber };
    return c ? { _id: null, name: c.name, phoneNumber: c.phoneNumber } : null;
  }
  if (!c) return null;
  const id = c._id && (!live || live.has(c._id)) ? c._id : null;
  return { _id: id, name: c.name, phoneNumber: c.phoneNumber };
}

function common(call: StoredCall, live: LiveContacts): Omit<VoiceConversation, 'messages' | 'summary' | 'deliveries'> {
  return {
    _id: call.id,
    callSid: call.callSid,
    status: call.status,
    phoneNumber: call.phoneNumber,
    internalNumber: call.internalNumber,
    contact: contactOf(call, live),
    duration: call.duration,
    createdAt: call.createdAt,
    endedAt: call.endedAt,
    voiceSettings: call.voiceSettings,
    summaryStatus: call.summaryStatus,
    ...(call.summaryError ? { summaryError: call.summaryError } : {}),
    agent: call.agent,
    escalated: call.escalated,
    ...(call.escalationReason ? { escalationReason: call.escalationReason } : {}),
    hasRecording: call.recording !== null && call.recording !== undefined,
    ...(call.recordingDeleted ? { recordingDeleted: { at: call.recordingDeleted.at, days: call.recordingDeleted.days } } : {}),
    ...(call.endReason ? { endReason: call.endReason } : {}),
    conversationMode: call.conversationMode,
    latency: call.latency,
  };
}

export function toVoiceConversation(call: StoredCall, live?: LiveContacts): VoiceConversation {
  return { ...common(call, live), messages: call.messages, summary: call.summary, deliveries: call.deliveries ?? [], summaryEmail: emailDeliveryView(call.summaryEmail) };
}

export function toVoiceConversationListItem(call: StoredCall, messageCount: number, live?: LiveContacts): VoiceConversationListItem {
  return { ...common(call, live), messageCount };
}

/** The ids of the contacts these calls link to (to check which still exist, and their names). */
export function linkedContactIds(calls: readonly StoredCall[]): string[] {
  return [...new Set(calls.map((c) => c.contact?._id).filter((id): id is string => typeof id === 'string' && id !== ''))];
}

/** The callers' E.164 numbers of these calls (a caller may have been saved as a contact since). */
export function callerPhones(calls: readonly StoredCall[]): string[] {
  return [...new Set(calls.map((c) => c.phoneNumber).filter((p) => E164_RE.test(p)))];
}
