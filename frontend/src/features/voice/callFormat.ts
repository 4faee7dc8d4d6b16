/**
 * The call logs' pure rules (SPEC §2 Voice call logs and Voice conversation detail): duration as
 * minutes:seconds, confidence as a percentage, the list's query in the URL and where 'View Contact Details' goes.
 */
import type { CallStatus, VoiceConversation } from '@agentdesk/functions/contract';
import { formatPercent } from '../../shared/intl';

/** Milliseconds → 'm:ss' (65 000 → '1:05'; 0, negative or missing → '0:00'). */
export function formatDuration(ms: number | null | undefined): string {
  const total = Number.isFinite(ms) && (ms as number) > 0 ? Math.round((ms as number) / 1000) : 0;
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

/** Twilio's 0..1 speech confidence → '87%' ('87 %' in Spanish); null for agent turns or a missing value. */
export function confidencePercent(confidence: number | null | undefined, language = 'en'): string | null {
  if (confidence === null || confidence === undefined || !Number.isFinite(confidence)) return null;
  return formatPercent(language, confidence);
}

export const STATUS_COLOR: Record<CallStatus, 'success' | 'info' | 'warning' | 'error' | 'default'> = {
  active: 'info',
  completed: 'success',
  hung_up: 'warning',
  failed: 'error',
  archived: 'default',
};

export interface CallLogFilters {
  page: number;
  search: string;
}

/** ?page=&search= → filters (a bad page is 1). */
export function parseCallFilters(params: URLSearchParams): CallLogFilters {
  const page = Number(params.get('page'));
  return { page: Number.isInteger(page) && page >= 1 ? page : 1, search: (params.get('search') ?? '').trim() };
}

export function callFiltersToParams({ page, search }: CallLogFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (search) params.set('search', search);
  if (page > 1) params.set('page', String(page));
  return params;
}

/** 'View Contact Details': the contact's page when it exists, else the contacts list searched by name or phone. */
export function contactLink(contact: VoiceConversation['contact'], callerNumber: string): string {
  if (contact?._id) return `/contacts/${encodeURIComponent(contact._id)}`;
  const needle = contact?.name?.trim() || contact?.phoneNumber || callerNumber;
  return needle ? `/contacts?${new URLSearchParams({ search: needle }).toString()}` : '/contacts';
}

/** Whether the detail should keep polling: the call is live or its analysis is still running. */
export function callInProgress(call: Pick<VoiceConversation, 'status' | 'summaryStatus' | 'summaryEmail'> | undefined): boolean {
  return !!call && (call.status === 'active' || call.summaryStatus === 'pending' || summaryEmailInFlight(call));
}

/** The summary e-mail is still on its way (queued, being sent, or waiting for SES to retry): the page keeps polling (issue 34). */
export function summaryEmailInFlight(call: Pick<VoiceConversation, 'summaryEmail'>): boolean {
  const state = call.summaryEmail?.state;
  return state === 'queued' || state === 'sending' || state === 'retrying';
}

/** Resend is offered once the summary e-mail failed, or was sent (to get it again). */
export function canResendSummary(call: Pick<VoiceConversation, 'summaryEmail' | 'summaryStatus'>): boolean {
  const state = call.summaryEmail?.state;
  return call.summaryStatus === 'completed' && (state === 'failed' || state === 'sent');
}

/** True when the analysis extracted a name, an e-mail or a website that 'Apply to contact' can offer. */
export function hasExtractedContact(call: Pick<VoiceConversation, 'summary'>): boolean {
  const c = call.summary?.contactExtracted;
  return !!c && (c.name.trim() !== '' || c.email.trim() !== '' || c.web.trim() !== '');
}
