import { describe, expect, it } from 'vitest';
import { callSummarySchema } from '../../../src/contract/voice.js';
import { ModelError } from '../../../src/domain/ai/ports.js';
import {
  CALL_SUMMARY_JSON_SCHEMA,
  RetryableSummaryError,
  analyseCall,
  parseSummary,
  processCallSummaryJob,
  summaryReasons,
  transcriptText,
} from '../../../src/domain/voice/summary.js';
import { MemoryCallRepository, ScriptedModel, connector, storedCall, turn, validSummary } from './fakes.js';

/** Every object of a strict structured-output schema lists all its properties as required and forbids others. */
function strictViolations(schema: Record<string, unknown>, path = '$'): string[] {
  const out: string[] = [];
  if (schema.type === 'object') {
    const props = Object.keys((schema.properties ?? {}) as object);
    const required = (schema.required ?? []) as string[];
    if (schema.additionalProperties !== false) out.push(`${path}: additionalProperties`);
    if (props.some((p) => !required.includes(p)) || required.length !== props.length) out.push(`${path}: required`);
    for (const [k, v] of Object.entries(schema.properties as Record<string, Record<string, unknown>>)) out.push(...strictViolations(v, `${path}.${k}`));
  }
  if (schema.type === 'array') out.push(...strictViolations(schema.items as Record<string, unknown>, `${path}[]`));
  return out;
}

describe('call summary JSON schema', () => {
  it('meets structured outputs strict mode (all required, no additional properties)', () => {
    expect(strictViolations(CALL_SUMMARY_JSON_SCHEMA)).toEqual([]);
  });

  it('describes exactly the fields callSummarySchema validates', () => {
    const props = CALL_SUMMARY_JSON_SCHEMA.properties as Record<string, unknown>;
    expect(Object.keys(props).sort()).toEqual(Object.keys(callSummarySchema.shape).sort());
  });
});

describe('parseSummary', () => {
  it('accepts a valid answer and refuses invalid ones with a reason', () => {
    expect(parseSummary(JSON.stringify(validSummary))).toEqual({ ok: true, summary: validSummary });
    expect(parseSummary('not json')).toEqual({ ok: false, reason: 'not valid JSON' });
    expect(parseSummary(null)).toEqual({ ok: false, reason: 'empty answer' });
    const bad = parseSummary(JSON.stringify({ ...validSummary, sentiment: 'happy' }));
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.reason).toMatch(/^sentiment:/);
  });
});

describe('transcriptText', () => {
  it('labels turns and keeps the newest text when too long', () => {
    expect(transcriptText([turn('agent', 'Hi'), turn('user', 'Hello\nthere')])).toBe('Agent: Hi\nCaller: Hello there');
    const long = transcriptText([turn('user', 'a'.repeat(30_000)), turn('agent', 'the end')]);
    expect(long.startsWith('[…]')).toBe(true);
    expect(long.endsWith('Agent: the end')).toBe(true);
  });
});

describe('analyseCall', () => {
  it('asks for strict structured output with the transcript and returns the validated summary', async () => {
    const model = new ScriptedModel([JSON.stringify(validSummary)]);
    const result = await analyseCall({ ai: connector(model) }, storedCall(), { finalAttempt: false });
    expect(result).toEqual({ summaryStatus: 'completed', summary: validSummary });
    const req = model.requests[0]!;
    expect(req.jsonSchema?.schema).toEqual(CALL_SUMMARY_JSON_SCHEMA);
    expect(req.model).toBe('gpt-4o-mini');
    expect(req.maxTokens).toBeGreaterThanOrEqual(1000);
    expect(req.timeoutMs).toBeGreaterThan(0);
    expect(req.messages.at(-1)?.content).toContain('Caller: Quiero reservar una mesa');
  });

  it('retries once on an invalid answer and uses the second one', async () => {
    const model = new ScriptedModel(['{"quickSummary": ""}', JSON.stringify(validSummary)]);
    const invalid: string[] = [];
    const result = await analyseCall({ ai: connector(model), onInvalid: (i) => invalid.push(i.reason) }, storedCall(), { finalAttempt: false });
    expect(result.summaryStatus).toBe('completed');
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.messages.at(-1)?.content).toMatch(/invalid/);
    expect(invalid).toHaveLength(1);
  });

  it('fails with the reason after two invalid answers (a cut-off answer counts as invalid)', async () => {
    const model = new ScriptedModel(['garbage', { content: '{"quick', toolCalls: [], finishReason: 'length' }]);
    const result = await analyseCall({ ai: connector(model) }, storedCall(), { finalAttempt: false });
    expect(result.summaryStatus).toBe('failed');
    expect(result.summary).toBeNull();
    expect(result.summaryStatus === 'failed' && result.summaryError).toContain(summaryReasons.invalidOutput);
    expect(result.summaryStatus === 'failed' && result.summaryError).toContain('cut off');
  });

  it('fails without the ChatGPT integration, skips a call where the caller said nothing', async () => {
    expect(await analyseCall({ ai: connector(null) }, storedCall(), { finalAttempt: false })).toEqual({
      summaryStatus: 'failed',
      summary: null,
      summaryError: summaryReasons.noIntegration,
    });
    const silent = storedCall({ messages: [turn('agent', 'Hola')] });
    const model = new ScriptedModel([]);
    expect((await analyseCall({ ai: connector(model) }, silent, { finalAttempt: false })).summaryStatus).toBe('skipped');
    expect(model.requests).toHaveLength(0);
  });

  it('throws a transient model failure for the queue to retry, and stores it as failed on the last attempt', async () => {
    await expect(analyseCall({ ai: connector(new ScriptedModel([new ModelError('timeout', 't')])) }, storedCall(), { finalAttempt: false })).rejects.toBeInstanceOf(
      RetryableSummaryError,
    );
    const last = await analyseCall({ ai: connector(new ScriptedModel([new ModelError('rate_limit', 'r')])) }, storedCall(), { finalAttempt: true });
    expect(last).toEqual({ summaryStatus: 'failed', summary: null, summaryError: summaryReasons.modelUnavailable });
    const key = await analyseCall({ ai: connector(new ScriptedModel([new ModelError('auth', 'a')])) }, storedCall(), { finalAttempt: false });
    expect(key).toEqual({ summaryStatus: 'failed', summary: null, summaryError: summaryReasons.modelKeyRejected });
  });
});

/** The handoff notice is not under test in the final-summary cases. */
const noHandoff = async (): Promise<never> => {
  throw new Error('no handoff notice expected');
};

/** The outbound-email queue, recording what the job queued (issue 34). */
function emailQueue() {
  const queued: Array<{ kind: string; subjectId: string }> = [];
  return { queued, emails: { queue: async (ref: { kind: 'call-summary' | 'notification' | 'call-handoff'; userId: string; subjectId: string }) => (queued.push({ kind: ref.kind, subjectId: ref.subjectId }), null) } };
}

describe('processCallSummaryJob', () => {
  const noSettings = { get: async () => null };

  it('stores the summary and delivers it per the current settings', async () => {
    const call = storedCall();
    const calls = new MemoryCallRepository(call);
    const delivered: unknown[] = [];
    const out = await processCallSummaryJob(
      {
        calls,
        ai: connector(new ScriptedModel([JSON.stringify(validSummary)])),
        settings: { get: async () => ({ summaryNotificationMethod: 'webhook', summaryWebhookUrl: 'https://example.com/hook' }) },
        delivery: { deliver: async (_c, s, t) => (delivered.push({ s, t }), []), notifyHandoff: noHandoff },
        emails: emailQueue().emails,
        handoffs: calls,
      },
      { userId: call.userId, callId: call.id },
      { finalAttempt: false },
    );
    expect(out).toEqual({ outcome: 'done', summaryStatus: 'completed', delivered: true, resumed: false });
    expect((await calls.get(call.userId, call.id))?.summary).toEqual(validSummary);
    expect(delivered).toEqual([{ s: validSummary, t: { method: 'webhook', webhookUrl: 'https://example.com/hook' } }]);
  });

  it('is idempotent: a finished analysis is not redone, a completed one never delivered is only delivered (by e-mail: queued, issue 34)', async () => {
    const model = new ScriptedModel([]);
    const failed = storedCall({ summaryStatus: 'failed', summaryError: 'x' });
    const completed = storedCall({ summaryStatus: 'completed', summary: validSummary, settings: { ...storedCall().settings, summaryNotificationMethod: 'email' } });
    const sent = storedCall({ summaryStatus: 'completed', summary: validSummary, deliveries: [{ method: 'email', attempt: 1, at: 'x', ok: true }] });
    const hooked = storedCall({ summaryStatus: 'completed', summary: validSummary, settings: { ...storedCall().settings, summaryNotificationMethod: 'webhook' } });
    const calls = new MemoryCallRepository(failed, completed, sent, hooked);
    let deliveries = 0;
    const { queued, emails } = emailQueue();
    const deps = { calls, ai: connector(model), settings: noSettings, delivery: { deliver: async () => (deliveries++, []), notifyHandoff: noHandoff }, emails, handoffs: calls };
    expect(await processCallSummaryJob(deps, { userId: 'user-1', callId: failed.id }, { finalAttempt: false })).toMatchObject({ summaryStatus: 'failed', delivered: false });
    expect(await processCallSummaryJob(deps, { userId: 'user-1', callId: completed.id }, { finalAttempt: false })).toMatchObject({ delivered: true, resumed: true });
    expect(await processCallSummaryJob(deps, { userId: 'user-1', callId: sent.id }, { finalAttempt: false })).toMatchObject({ delivered: false });
    expect(await processCallSummaryJob(deps, { userId: 'user-1', callId: hooked.id }, { finalAttempt: false })).toMatchObject({ delivered: true, resumed: true });
    expect(model.requests).toHaveLength(0);
    // The e-mail is queued (the queue keeps it to one send per call), never sent from the job.
    expect(queued).toEqual([{ kind: 'call-summary', subjectId: completed.id }]);
    expect(deliveries).toBe(1);
  });

  it('leaves active, unknown and foreign calls alone; never delivers a failed analysis', async () => {
    const active = storedCall({ status: 'active' });
    const invalid = storedCall({ settings: { ...storedCall().settings, summaryNotificationMethod: 'email' } });
    const calls = new MemoryCallRepository(active, invalid);
    let deliveries = 0;
    const { queued, emails } = emailQueue();
    const deps = { calls, ai: connector(new ScriptedModel(['bad', 'worse'])), settings: noSettings, delivery: { deliver: async () => (deliveries++, []), notifyHandoff: noHandoff }, emails, handoffs: calls };
    expect(await processCallSummaryJob(deps, { userId: 'user-1', callId: active.id }, { finalAttempt: false })).toEqual({ outcome: 'active' });
    expect(await processCallSummaryJob(deps, { userId: 'user-2', callId: invalid.id }, { finalAttempt: false })).toEqual({ outcome: 'missing' });
    expect(await processCallSummaryJob(deps, { userId: 'user-1', callId: invalid.id }, { finalAttempt: false })).toMatchObject({ summaryStatus: 'failed', delivered: false });
    expect((await calls.get('user-1', invalid.id))?.summaryError).toContain(summaryReasons.invalidOutput);
    expect(deliveries).toBe(0);
    expect(queued).toEqual([]);
  });
});

describe('processCallSummaryJob: the handoff stage (warm transfer)', () => {
  const active = (method: 'email' | 'whatsapp' | 'webhook' | null) =>
    storedCall({
      status: 'active',
      endReason: 'forwarded',
      escalated: true,
      escalationReason: 'Wants the doctor',
      settings: { ...storedCall().settings, summaryNotificationMethod: method, escalationForwardNumber: '+34910000099' },
    });

  function run(call: ReturnType<typeof active>, model: ScriptedModel, result: { ok: true } | { ok: false; error: string } = { ok: true }) {
    const calls = new MemoryCallRepository(call);
    // Every notice: by WhatsApp through notifyHandoff, by e-mail queued with the analysis so far kept on the call (issue 34).
    const notices: Array<{ summary: unknown; channel: string }> = [];
    let delivered = 0;
    const { queued, emails } = emailQueue();
    const deps = {
      calls,
      ai: connector(model),
      settings: { get: async () => null },
      delivery: {
        deliver: async () => (delivered++, []),
        notifyHandoff: async (_c: unknown, summary: unknown) => (notices.push({ summary, channel: 'whatsapp' }), result),
      },
      emails: {
        queue: async (ref: { kind: 'call-summary' | 'notification' | 'call-handoff'; userId: string; subjectId: string }) => {
          notices.push({ summary: (await calls.get(ref.userId, ref.subjectId))?.handoffSummary, channel: 'email' });
          return emails.queue(ref as never);
        },
      },
      handoffs: calls,
    };
    return { calls, notices, queued, delivered: () => delivered, out: processCallSummaryJob(deps, { userId: call.userId, callId: call.id, stage: 'handoff' }, { finalAttempt: false }) };
  }

  it('analyses the call so far while it is still active and tells the owner at once, storing nothing (the final summary comes after the call)', async () => {
    const call = active('email');
    const t = run(call, new ScriptedModel([JSON.stringify(validSummary)]));

    expect(await t.out).toEqual({ outcome: 'handoff', channel: 'email', notified: true });
    // By e-mail: queued (it waits for SES), rendered from the call and the analysis so far kept for it.
    expect(t.notices).toEqual([{ summary: validSummary, channel: 'email' }]);
    expect(t.queued).toEqual([{ kind: 'call-handoff', subjectId: call.id }]);
    expect(await t.calls.get(call.userId, call.id)).toMatchObject({ summaryStatus: 'pending', summary: null });
    expect(t.delivered()).toBe(0);
  });

  it('WhatsApp when that is the summary method; e-mail for the webhook method; nothing when summaries are disabled', async () => {
    const whatsapp = run(active('whatsapp'), new ScriptedModel([JSON.stringify(validSummary)]));
    const webhook = run(active('webhook'), new ScriptedModel([JSON.stringify(validSummary)]));
    const disabledModel = new ScriptedModel([]);
    const disabled = run(active(null), disabledModel);

    expect(await whatsapp.out).toMatchObject({ channel: 'whatsapp', notified: true });
    expect(whatsapp.notices).toEqual([{ summary: validSummary, channel: 'whatsapp' }]);
    expect(await webhook.out).toMatchObject({ channel: 'email', notified: true });
    expect(webhook.queued).toHaveLength(1);
    expect(await disabled.out).toEqual({ outcome: 'handoff', channel: null, notified: false });
    expect(disabled.notices).toEqual([]);
    expect(disabledModel.requests).toHaveLength(0);
  });

  it('does not wait for a retry when the model fails: the notice goes without the analysis; a failed WhatsApp send is reported', async () => {
    const failing = run(active('email'), new ScriptedModel([new ModelError('unavailable', 'down')]));
    const unsent = run(active('whatsapp'), new ScriptedModel([JSON.stringify(validSummary)]), { ok: false, error: 'The WhatsApp message could not be sent.' });

    expect(await failing.out).toMatchObject({ notified: true });
    expect(failing.notices).toEqual([{ summary: null, channel: 'email' }]);
    expect(await unsent.out).toEqual({ outcome: 'handoff', channel: 'whatsapp', notified: false, error: 'The WhatsApp message could not be sent.' });
  });
});
