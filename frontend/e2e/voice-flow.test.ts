/**
 * The voice flow in a real browser against the local runtime (fake OpenAI and fake Twilio are the
 * stack's defaults): a user with ChatGPT and an enabled agent (set up through the API) connects
 * Twilio Voice in the Integrations modal with an account registered in the fake Twilio, which
 * points the number at the app. The fake Twilio then plays a call to that number (POST
 * /_test/calls: signed webhooks, the caller speaks one sentence and hangs up). The call appears in
 * /voice-conversations; its detail shows the transcript (the caller on the right with the
 * confidence, the agent on the left), the AI Analysis the call-summary worker produced, and plays
 * the recording through the authenticated proxy. Search narrows the log; an unknown id shows
 * 'Voice Conversation Not Found'.
 */
import { randomUUID } from 'node:crypto';
import type { Locator } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { DashboardData } from '../../functions/src/contract/dashboard.js';
import { VOICE_DEFAULTS, type VoiceConversation, type VoiceConversationList, type VoiceSettings } from '../../functions/src/contract/voice.js';
import { callApi, chatGptAndAgent, eventually, newPage, pressConnect, randomDigits, slowly, subscribedUser, twilioControl, useBrowser } from './flows.js';

const appUrl = inject('appUrl');

/** Text as read on screen: Intl's and our non-breaking spaces as plain ones. */
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

/** ms → the seconds the screens show, halves rounded up ('0.48 s' for 475 ms; Spanish uses a decimal comma). */
const seconds = (ms: number, language: 'en' | 'es' = 'en') => {
  const text = `${(Math.round(ms / 10) / 100).toFixed(2)} s`;
  return language === 'es' ? text.replace('.', ',') : text;
};

/** CSS align-items of a transcript turn: the caller's turns sit on the right, the agent's on the left. */
const sideOf = (turn: Locator) => turn.evaluate((el) => getComputedStyle(el).alignItems);

const browser = useBrowser();

describe('voice', () => {
  it('connects Twilio Voice, receives a call and shows its transcript and AI analysis', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'voice');

    // ChatGPT, one enabled agent, recording on, the classic <Gather> loop (the streamed path has its own test below).
    await chatGptAndAgent(page, {
      name: 'Reception',
      description: 'Answers phone calls for a restaurant: opening hours, table bookings and the menu',
      objective: 'Take table bookings and answer questions briefly',
    });
    const settings = await callApi<VoiceSettings>(page, 'GET', '/api/voice-settings');
    expect(settings.messageWelcome).toBe(VOICE_DEFAULTS.messageWelcome);
    await callApi(page, 'PUT', '/api/voice-settings', { ...settings, enableRecording: true, conversationMode: 'gather' });

    // A Twilio account with one number, known to the fake Twilio only.
    const businessNumber = `+1415${randomDigits(7)}`;
    const account = await twilioControl<{ accountSid: string; authToken: string }>('accounts', { numbers: [businessNumber] });

    // Integrations → Twilio Voice: setup configures the number's voice URL and status callback.
    await page.goto(`${appUrl}/integrations`);
    await pressConnect(page, 'integration-twilio-voice');
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Account SID/).fill(account.accountSid);
    await dialog.getByLabel(/^Auth Token/).fill(account.authToken);
    await dialog.getByLabel(/^Phone Number/).fill(businessNumber);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await eventually(() => page.getByText('Twilio Voice integration configured successfully').count()).toBeGreaterThan(0);
    await eventually(() => dialog.getByTestId('twilio-number-configured').count()).toBe(1);
    expect(await dialog.getByTestId('twilio-webhook-url').inputValue()).toMatch(/\/api\/webhooks\/twilio\/[^/]+\/voice$/);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();

    // Nobody has called yet.
    await page.goto(`${appUrl}/voice-conversations`);
    await eventually(() => page.getByText('No voice conversations found').count()).toBe(1);

    // A caller dials the number: the fake Twilio plays the call against the app, signed as Twilio signs.
    const caller = `+346${randomDigits(8)}`;
    const question = 'Quiero reservar una mesa para cuatro personas mañana a las nueve';
    const call = await twilioControl<{ callSid: string; ended: string; httpStatuses: number[] }>('calls', {
      to: businessNumber,
      from: caller,
      turns: [{ speech: question, confidence: 0.91 }],
      hangup: 'after-script',
    });
    expect(call.httpStatuses.every((s) => s === 200)).toBe(true);

    // The log: one row with the caller and the business number, ended, with a duration.
    await page.reload();
    const rows = page.getByTestId('call-row');
    await slowly(() => rows.count()).toBe(1);
    const row = rows.first();
    // Grouped (issue 29): the Spanish caller internationally, the business's US number as at home (a US account).
    expect(await row.getByText(`+34 ${caller.slice(3, 6)} ${caller.slice(6, 8)} ${caller.slice(8, 10)} ${caller.slice(10)}`, { exact: true }).count()).toBe(1);
    expect(await row.getByText(`To (${businessNumber.slice(2, 5)}) ${businessNumber.slice(5, 8)}-${businessNumber.slice(8)}`, { exact: true }).count()).toBe(1);
    // Ended by the app's goodbye (Completed) or by the caller hanging up after the script (Hung up).
    await slowly(async () => {
      await page.reload();
      return rows.first().getByTestId('call-status').textContent();
    }).toMatch(/^(Completed|Hung up)$/);
    expect(await page.getByTestId('calls-showing').textContent()).toBe('Showing 1 to 1 of 1 result');

    // Search by phone number narrows the log.
    const search = page.getByRole('searchbox', { name: 'Search by phone number' });
    await search.fill('999999999');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await eventually(() => page.getByText('No voice conversations found').count()).toBe(1);
    await search.fill(caller.slice(-6));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await eventually(() => rows.count()).toBe(1);

    // The detail: the transcript in order, the caller on the right with the confidence, the agent on the left.
    await rows.first().click();
    await eventually(() => new URL(page.url()).pathname).toMatch(/^\/voice-conversations\/[^/]+$/);
    const turns = page.getByTestId('call-transcript').getByTestId('call-turn');
    await slowly(() => turns.count()).toBeGreaterThanOrEqual(3);
    const welcome = turns.nth(0);
    expect(await welcome.getAttribute('data-role')).toBe('agent');
    expect(await welcome.getByText(VOICE_DEFAULTS.messageWelcome, { exact: true }).count()).toBe(1);
    expect(await sideOf(welcome)).toBe('flex-start');
    const asked = turns.nth(1);
    expect(await asked.getAttribute('data-role')).toBe('user');
    expect(await asked.getByText(question, { exact: true }).count()).toBe(1);
    expect(await asked.getByText(/Confidence 91%/).count()).toBe(1);
    expect(await sideOf(asked)).toBe('flex-end');
    const answer = turns.nth(2);
    expect(await answer.getAttribute('data-role')).toBe('agent');
    expect((await answer.textContent())?.trim()).not.toBe('');
    expect(await sideOf(answer)).toBe('flex-start');
    // No raw id in the header (issue 29): the call's reference (SPEC §2) is copied for support.
    expect(await page.getByText(call.callSid, { exact: false }).count()).toBe(0);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: appUrl });
    await page.getByRole('button', { name: 'Copy reference' }).click();
    await eventually(() => page.getByText('Reference copied').count()).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(call.callSid);
    expect(await page.getByRole('heading', { name: 'Voice Settings' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'View Contact Details' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Open WhatsApp' }).getAttribute('href')).toBe(`https://wa.me/${caller.slice(1)}`);
    expect(await page.getByTestId('call-duration').textContent()).toMatch(/^\d+:\d{2}$/);

    // The AI Analysis arrives from the call-summary worker (the page polls while it is pending).
    await slowly(() => page.getByTestId('call-analysis').count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'AI Analysis' }).count()).toBe(1);
    expect((await page.getByTestId('call-quick-summary').textContent())?.trim()).not.toBe('');
    for (const label of ['Action Points', 'Sentiment', 'Urgency', 'Tone', 'Extracted Contact Data', 'Extracted Booking Data']) {
      expect(await page.getByTestId('call-analysis').getByText(label, { exact: true }).count()).toBe(1);
    }

    // The recording plays through the authenticated proxy (a blob URL, the bearer token never in a src).
    await page.getByRole('button', { name: 'Play recording' }).click();
    const audio = page.getByTestId('call-recording');
    await eventually(() => audio.count()).toBe(1);
    expect(await audio.getAttribute('src')).toMatch(/^blob:/);

    // An id that is not one of this user's calls.
    await page.goto(`${appUrl}/voice-conversations/${randomUUID()}`);
    await eventually(() => page.getByText('Voice Conversation Not Found').count()).toBe(1);
  });

  it('a streamed call appears with its latency timeline', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'voice-stream');
    await chatGptAndAgent(page, {
      name: 'Clinic desk',
      description: 'Answers phone calls for a dental clinic: opening hours and appointments',
      objective: 'Book appointments and answer questions briefly',
    });
    // Real-time answers (the default) with a voice ConversationRelay speaks.
    const settings = await callApi<VoiceSettings>(page, 'GET', '/api/voice-settings');
    await callApi(page, 'PUT', '/api/voice-settings', { ...settings, conversationMode: 'streaming', voice: 'Google.es-ES-Standard-A' });
    const businessNumber = `+1415${randomDigits(7)}`;
    const account = await twilioControl<{ accountSid: string; authToken: string }>('accounts', { numbers: [businessNumber] });
    await callApi(page, 'POST', '/api/integrations/twilio-voice/setup', { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: businessNumber });

    // The fake Twilio plays the call over ConversationRelay: three prompts, the caller speaking over the second answer.
    const caller = `+346${randomDigits(8)}`;
    const played = await twilioControl<{ callSid: string; httpStatuses: number[] }>('calls', {
      to: businessNumber,
      from: caller,
      turns: [
        { speech: '¿A qué hora abren mañana?', confidence: 0.93 },
        { speech: 'Quiero una cita para una limpieza, el martes por la tarde, con la doctora García, si es posible', confidence: 0.9, interruptAfterTokens: 1 },
        { speech: 'Gracias, eso es todo', confidence: 0.95 },
      ],
      hangup: 'after-script',
    });
    expect(played.httpStatuses.every((s) => s === 200), JSON.stringify(played.httpStatuses)).toBe(true);

    // What the API stored: a streamed call, timed answers, one interrupted.
    await slowly(async () => (await callApi<VoiceConversationList>(page, 'GET', '/api/voice-conversations')).conversations.length).toBe(1);
    const [item] = (await callApi<VoiceConversationList>(page, 'GET', '/api/voice-conversations')).conversations;
    const { conversation: stored } = await callApi<{ conversation: VoiceConversation }>(page, 'GET', `/api/voice-conversations/${item!._id}`);
    expect(stored.conversationMode).toBe('streaming');
    const timed = stored.messages.filter((m) => m.role === 'agent' && m.latency);
    expect(timed.length).toBeGreaterThanOrEqual(3);
    expect(stored.latency?.turns).toBe(timed.length);
    expect(timed.filter((m) => m.interrupted)).toHaveLength(1);
    const { p50Ms, p95Ms } = stored.latency!;

    // The log: the call marked real time, with its p50 / p95.
    await page.goto(`${appUrl}/voice-conversations`);
    const row = page.getByTestId('call-row').first();
    await eventually(() => row.getByTestId('call-mode').textContent()).toBe('Real time');
    expect(plain(await row.getByTestId('call-latency').textContent())).toBe(`${seconds(p50Ms)} / ${seconds(p95Ms)}`);
    expect(await page.getByRole('columnheader', { name: 'Response time (p50 / p95)' }).count()).toBe(1);

    // The detail: the mode, p50 / p95, one timeline row per timed answer with its first and last token, the interrupted one marked.
    await row.click();
    const timeline = page.getByTestId('call-latency-timeline');
    await eventually(() => timeline.count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Response times' }).count()).toBe(1);
    expect(await page.getByTestId('call-mode').textContent()).toBe('Real-time answers (streaming)');
    expect(plain(await timeline.getByTestId('call-latency-p50').textContent())).toBe(seconds(p50Ms));
    expect(plain(await timeline.getByTestId('call-latency-p95').textContent())).toBe(seconds(p95Ms));
    const rows = timeline.getByRole('list', { name: 'Response time of each answer' }).getByRole('listitem');
    expect(await rows.count()).toBe(timed.length);
    for (const [i, turn] of timed.entries()) {
      const r = rows.nth(i);
      expect(await r.getByText(`Answer ${i + 1}`, { exact: true }).count()).toBe(1);
      expect(plain(await r.getByTestId('latency-row-times').textContent())).toBe(
        `Started speaking after ${seconds(turn.latency!.firstTokenMs)}, finished after ${seconds(Math.max(turn.latency!.firstTokenMs, turn.latency!.lastTokenMs))}`,
      );
      expect(await r.getByText('Interrupted', { exact: true }).count()).toBe(turn.interrupted ? 1 : 0);
    }
    // The transcript keeps what the caller heard of the interrupted answer, marked too.
    const interruptedTurn = page.getByTestId('call-transcript').locator('[data-testid="call-turn"][data-interrupted="true"]');
    expect(await interruptedTurn.count()).toBe(1);
    expect(await interruptedTurn.getByText(/Interrupted/).count()).toBe(1);
    expect(plain(await interruptedTurn.textContent())).toContain(timed.find((m) => m.interrupted)!.content.trim());

    // In Spanish (the profile's language): decimal commas and 'Interrumpido'.
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Dana Dentist', language: 'es' });
    await page.reload();
    await eventually(() => page.getByRole('heading', { name: 'Tiempos de respuesta' }).count()).toBe(1);
    expect(plain(await page.getByTestId('call-latency-p50').textContent())).toBe(seconds(p50Ms, 'es'));
    expect(await page.getByTestId('latency-row-interrupted').textContent()).toBe('Interrumpido');
    await page.goto(`${appUrl}/voice-conversations`);
    await eventually(() => page.getByTestId('call-mode').first().textContent()).toBe('Tiempo real');
    expect(plain(await page.getByTestId('call-latency').first().textContent())).toBe(`${seconds(p50Ms, 'es')} / ${seconds(p95Ms, 'es')}`);

    // The dashboard: the period's median response time over the call's answers (counted when the call ends).
    await slowly(async () => (await callApi<DashboardData>(page, 'GET', '/api/dashboard')).voiceAnalytics.turnLatency?.turns).toBe(timed.length);
    const median = (await callApi<DashboardData>(page, 'GET', '/api/dashboard')).voiceAnalytics.turnLatency!;
    await page.goto(`${appUrl}/`);
    const card = page.getByTestId('stat-turnLatency');
    await eventually(async () => plain(await card.getByTestId('stat-value').textContent())).toBe(seconds(median.medianMs, 'es'));
    expect(await card.getByText(`Sobre ${timed.length} respuestas en tiempo real`).count()).toBe(1);
  });
});
