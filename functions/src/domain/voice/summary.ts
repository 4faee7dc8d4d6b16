/**
 * The AI analysis of a finished call (issue 7 "After the call"): the user's ChatGPT connection is
 * asked for a structured answer (OpenAI structured outputs: response_format json_schema, strict),
 * the answer is validated against callSummarySchema, an invalid answer is asked for once more,
 * and a second invalid answer leaves the call with summaryStatus 'failed' and the reason. Nothing
 * here throws on a bad answer; only a transient model failure (rate limit, timeout, provider
 * down) is thrown as RetryableSummaryError, so the queue can try again while it has attempts left.
 */
import { SENTIMENTS, URGENCIES, callSummarySchema, type CallSummary, type CallTurn, type SummaryState } from '../../contract/voice.js';
import { type AiConnector, ModelError, type ModelMessage } from '../ai/ports.js';
import type { HandoffChannel, SummaryDelivery } from './delivery.js';
import type { OutboundEmails } from '../notifications/emails.js';
import type { CallRepository, CallSummaryJob, HandoffAnalyses, StoredCall, StoredVoiceSettings } from './ports.js';
import { sendCallAlert, type CallAlertSender } from './call-alert.js';
import { summaryReasons } from '../../contract/server-texts.js';

/** Why an analysis failed or was skipped (contract texts: the call detail shows them in the user's language). */
export { summaryReasons };

/** The structured-output schema sent to the model: every property required, no extra ones (strict mode). */
export const CALL_SUMMARY_JSON_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    quickSummary: { type: 'string', description: 'Two or three sentences: who called, why, and the outcome.' },
    actionPoints: { type: 'array', items: { type: 'string' }, description: 'What the business should do next; empty when nothing.' },
    sentiment: { type: 'string', enum: [...SENTIMENTS] },
    urgency: { type: 'string', enum: [...URGENCIES] },
    tone: { type: 'string', description: "The caller's tone in a few words." },
    contactExtracted: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        phone: { type: 'string' },
        email: { type: 'string' },
        web: { type: 'string' },
      },
      required: ['name', 'phone', 'email', 'web'],
      additionalProperties: false,
      description: 'Contact data the caller said; empty strings for what was not said.',
    },
    bookingExtracted: {
      type: 'object',
      properties: {
        from: { type: 'string', description: 'Start date/time of a booking as said (ISO 8601 when clear), or empty.' },
        to: { type: 'string', description: 'End date/time, or empty.' },
        numberOfPeople: { type: ['number', 'null'] },
        note: { type: 'string' },
      },
      required: ['from', 'to', 'numberOfPeople', 'note'],
      additionalProperties: false,
    },
  },
  required: ['quickSummary', 'actionPoints', 'sentiment', 'urgency', 'tone', 'contactExtracted', 'bookingExtracted'],
  additionalProperties: false,
};

export const SUMMARY_SCHEMA_NAME = 'call_summary';
/** Bounds one model call (two may run: the answer and one retry). */
export const SUMMARY_MODEL_TIMEOUT_MS = 30_000;
/** Room for the JSON answer whatever the integration's own maxTokens is. */
export const SUMMARY_MIN_TOKENS = 1_000;
/** Longest transcript sent (characters; the newest turns are kept when longer). */
export const TRANSCRIPT_MAX_CHARS = 24_000;

const SYSTEM_PROMPT = [
  'You analyse the transcript of a phone call between a caller and a business\'s AI voice agent.',
  'Answer only with the JSON object the schema describes, in the language the caller spoke.',
  'quickSummary: two or three sentences. actionPoints: concrete follow-ups for the business (may be empty).',
  'sentiment: positive, negative, mixed or neutral. urgency: critical, high, medium or low.',
  'contactExtracted and bookingExtracted: only what the caller actually said; use empty strings (and null for numberOfPeople) otherwise.',
  'The transcript comes from speech recognition and may contain errors; do not invent facts.',
].join('\n');

export function transcriptText(turns: readonly CallTurn[]): string {
  const lines = turns.map((t) => `${t.role === 'user' ? 'Caller' : 'Agent'}: ${t.content.replace(/\s+/g, ' ').trim()}`);
  let text = lines.join('\n');
  if (text.length > TRANSCRIPT_MAX_CHARS) text = `[…]\n${text.slice(text.length - TRANSCRIPT_MAX_CHARS)}`;
  return text;
}

/** Parses and validates a model answer; the reason (for logs and the retry prompt) when invalid. */
export function parseSummary(content: string | null): { ok: true; summary: CallSummary } | { ok: false; reason: string } {
  if (!content || !content.trim()) return { ok: false, reason: 'empty answer' };
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  const parsed = callSummarySchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `${issue?.path.join('.') || 'answer'}: ${issue?.message ?? 'does not match the schema'}` };
  }
  return { ok: true, summary: parsed.data };
}

/** A transient model failure: the job may be retried (the call keeps summaryStatus 'pending'). */
export class RetryableSummaryError extends Error {
  constructor(readonly reason: string) {
    super(`call summary: transient model failure (${reason})`);
    this.name = 'RetryableSummaryError';
  }
}

export type AnalysisResult =
  | { summaryStatus: 'completed'; summary: CallSummary }
  | { summaryStatus: 'failed'; summary: null; summaryError: string }
  | { summaryStatus: 'skipped'; summary: null; summaryError: string };

export interface AnalysisDeps {
  ai: AiConnector;
  onInvalid?: (info: { callId: string; attempt: number; reason: string }) => void;
}

/**
 * Analyses one call. `finalAttempt`: a transient model failure is then stored as 'failed'
 * instead of thrown (the queue has no attempt left).
 */
export async function analyseCall(deps: AnalysisDeps, call: StoredCall, options: { finalAttempt: boolean }): Promise<AnalysisResult> {
  if (!call.messages.some((m) => m.role === 'user' && m.content.trim() !== '')) {
    return { summaryStatus: 'skipped', summary: null, summaryError: summaryReasons.silent };
  }
  const connection = await deps.ai.forUser(call.userId);
  if (!connection) return { summaryStatus: 'failed', summary: null, summaryError: summaryReasons.noIntegration };
  const { settings, chat } = connection;
  const messages: ModelMessage[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: `Call from ${call.phoneNumber || 'an unknown number'} on ${call.createdAt}.\n\nTranscript:\n${transcriptText(call.messages)}` },
  ];
  for (let attempt = 1; attempt <= 2; attempt++) {
    let content: string | null;
    let finishReason: string;
    try {
      const completion = await chat.complete({
        model: settings.model,
        messages,
        maxTokens: Math.max(settings.maxTokens, SUMMARY_MIN_TOKENS),
        temperature: Math.min(settings.temperature, 0.3),
        jsonSchema: { name: SUMMARY_SCHEMA_NAME, schema: CALL_SUMMARY_JSON_SCHEMA },
        timeoutMs: SUMMARY_MODEL_TIMEOUT_MS,
      });
      content = completion.content;
      finishReason = completion.finishReason;
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      if (error.kind === 'auth') return { summaryStatus: 'failed', summary: null, summaryError: summaryReasons.modelKeyRejected };
      if (error.kind === 'not_found') return { summaryStatus: 'failed', summary: null, summaryError: summaryReasons.modelNotFound };
      if (!options.finalAttempt && error.kind !== 'bad_request') throw new RetryableSummaryError(error.kind);
      return { summaryStatus: 'failed', summary: null, summaryError: summaryReasons.modelUnavailable };
    }
    const parsed = finishReason === 'length' ? ({ ok: false, reason: 'answer cut off (max tokens)' } as const) : parseSummary(content);
    if (parsed.ok) return { summaryStatus: 'completed', summary: parsed.summary };
    deps.onInvalid?.({ callId: call.id, attempt, reason: parsed.reason });
    if (attempt === 1) {
      messages.push(
        { role: 'assistant', content: content ?? '' },
        { role: 'user', content: `That answer was invalid (${parsed.reason}). Answer again with only the JSON object the schema describes.` },
      );
    } else {
      return { summaryStatus: 'failed', summary: null, summaryError: summaryReasons.invalidOutputWithDetail(parsed.reason) };
    }
  }
  /* c8 ignore next */
  return { summaryStatus: 'failed', summary: null, summaryError: summaryReasons.invalidOutput };
}

// ---------------------------------------------------------------------------------------------
// The call-summary job

export interface CallSummaryJobDeps extends AnalysisDeps {
  calls: Pick<CallRepository, 'get' | 'setSummary'>;
  /** The user's current voice settings (summaryNotificationMethod, summaryWebhookUrl); null = none stored. */
  settings: { get(userId: string): Promise<Pick<StoredVoiceSettings, 'summaryNotificationMethod' | 'summaryWebhookUrl'> | null> };
  delivery: Pick<SummaryDelivery, 'deliver' | 'notifyHandoff'>;
  /** The outbound-email queue (issue 34): a summary, or a handoff notice, by e-mail is queued there, not sent here. */
  emails: Pick<OutboundEmails, 'queue'>;
  /** Keeps a forwarded call's analysis so far for its queued handoff notice e-mail. */
  handoffs: HandoffAnalyses;
  /** Sends an escalated call's owner alert (issue 17) once the call is over; never throws. */
  alerts?: CallAlertSender;
}

export type CallSummaryJobOutcome =
  | { outcome: 'missing' | 'active' }
  | { outcome: 'done'; summaryStatus: SummaryState; delivered: boolean; resumed: boolean }
  | { outcome: 'handoff'; channel: HandoffChannel | null; notified: boolean; error?: string };

/**
 * The handoff stage (issue 16, warm transfer): the call is being forwarded right now. The
 * transcript so far is analysed (nothing stored: the final summary runs when the call ends) and
 * the owner is told at once — by WhatsApp when that is their summary method, by e-mail for e-mail
 * and webhook (a person is about to pick up; a webhook is for systems, after the call). Summaries
 * disabled = no notice. A model failure does not wait for a retry: the notice goes without the
 * analysis (the conversation so far is in it anyway). By e-mail the notice is queued (issue 34:
 * it waits for SES, once per call), rendered from the call and the analysis stored here.
 */
export async function processHandoffNotice(deps: CallSummaryJobDeps, job: CallSummaryJob): Promise<CallSummaryJobOutcome> {
  const call = await deps.calls.get(job.userId, job.callId);
  if (!call) return { outcome: 'missing' };
  const stored = await deps.settings.get(call.userId);
  const method = stored ? stored.summaryNotificationMethod : call.settings.summaryNotificationMethod;
  if (!method) return { outcome: 'handoff', channel: null, notified: false };
  const channel: HandoffChannel = method === 'whatsapp' ? 'whatsapp' : 'email';
  const analysis = await analyseCall(deps, call, { finalAttempt: true });
  if (channel === 'email') {
    await deps.handoffs.setHandoffSummary(call.userId, call.id, analysis.summary);
    await deps.emails.queue({ kind: 'call-handoff', userId: call.userId, subjectId: call.id });
    return { outcome: 'handoff', channel, notified: true };
  }
  const result = await deps.delivery.notifyHandoff(call, analysis.summary);
  return result.ok ? { outcome: 'handoff', channel, notified: true } : { outcome: 'handoff', channel, notified: false, error: result.error };
}

/**
 * One call-summary queue message. Idempotent: a call whose analysis is already completed, failed
 * or skipped is not analysed again; a completed one whose summary was never sent (the worker
 * stopped between the two) is only delivered. A call still active is left alone (the final
 * status callback enqueues it). The settings the summary goes to are the user's current ones
 * (falling back to the call's snapshot when none are stored). By e-mail the summary is queued on
 * the outbound-email queue (issue 34: it waits there for SES), once per call: a retried job finds
 * it queued already and puts the same send back on the queue at most, never a second e-mail.
 */
export async function processCallSummaryJob(deps: CallSummaryJobDeps, job: CallSummaryJob, options: { finalAttempt: boolean }): Promise<CallSummaryJobOutcome> {
  if (job.stage === 'handoff') return processHandoffNotice(deps, job);
  const call = await deps.calls.get(job.userId, job.callId);
  if (!call) return { outcome: 'missing' };
  if (call.status === 'active') return { outcome: 'active' };
  if (deps.alerts) await sendCallAlert(deps.alerts, call);
  let summaryStatus = call.summaryStatus;
  let summary = call.summary;
  let resumed = true;
  if (summaryStatus === 'pending') {
    resumed = false;
    const result = await analyseCall(deps, call, options);
    await deps.calls.setSummary(call.userId, call.id, result);
    summaryStatus = result.summaryStatus;
    summary = result.summary;
  }
  if (summaryStatus !== 'completed' || !summary) return { outcome: 'done', summaryStatus, delivered: false, resumed };
  if (resumed && (call.deliveries ?? []).length > 0) return { outcome: 'done', summaryStatus, delivered: false, resumed };
  const stored = await deps.settings.get(call.userId);
  const method = stored ? stored.summaryNotificationMethod : call.settings.summaryNotificationMethod;
  const webhookUrl = stored ? stored.summaryWebhookUrl : call.settings.summaryWebhookUrl;
  if (!method) return { outcome: 'done', summaryStatus, delivered: false, resumed };
  if (method === 'email' || call.summaryEmail) {
    // Queued once per call (emails.queue is idempotent); a call e-mailed before keeps to e-mail.
    await deps.emails.queue({ kind: 'call-summary', userId: call.userId, subjectId: call.id });
    return { outcome: 'done', summaryStatus, delivered: true, resumed };
  }
  await deps.delivery.deliver(call, summary, { method, webhookUrl });
  return { outcome: 'done', summaryStatus, delivered: true, resumed };
}
