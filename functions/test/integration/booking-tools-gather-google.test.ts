/**
 * Two end-to-end paths of the agent's booking tools (issue 30) on the local stack, for a Spanish
 * clinic (Europe/Madrid): a <Gather>-loop call (not streamed) where the caller finds a slot and
 * books it for the caller's number, and another caller cannot cancel it; and an agent's WhatsApp
 * booking that the booking-events worker writes into the owner's Google Calendar (the fake Google's
 * events calendar), then deletes when the agent cancels it. The fake OpenAI calls a tool named in
 * the customer's words with its key=value arguments (local/fake-openai/brain.ts rule 3) and says
 * its result back ("Tool <name> returned: …").
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { GoogleCalendarStatus } from '../../src/contract/google-calendar.js';
import { simulateCall, type ScriptTurn, type SimulatedCall } from '../../local/fake-twilio/call-simulator.js';
import { api, provided } from '../support/api.js';
import { bookingsOf, clinic, clinicVoice, localOf, must, sayOnWhatsApp, weekdayAhead, type Clinic, type ClinicVoice } from '../support/bookings.js';
import { connectGoogle, googleEvents } from '../support/google-calendar.js';
import { callRepo, callerNumber } from '../support/seed-calls.js';
import { drainQueues } from '../support/stack-clients.js';
import { connectWhatsApp, randomDigits, waCustomer } from '../support/whatsapp.js';

describe('a <Gather> call books for the caller’s number', () => {
  const play = (voice: ClinicVoice, from: string, turns: ScriptTurn[]): Promise<SimulatedCall> =>
    simulateCall({
      voiceUrl: voice.setup.webhookUrl,
      statusCallbackUrl: voice.setup.statusCallbackUrl,
      accountSid: voice.accountSid,
      authToken: voice.authToken,
      from,
      to: voice.number,
      turns,
      twilioApiUrl: provided('twilioApiUrl'),
    });
  /** Everything the caller heard said, one line a <Say> (spoken: markdown marks such as underscores are dropped, domain/voice/speakable.ts). */
  const said = (call: SimulatedCall) =>
    call.events
      .filter((e) => e.verb === 'Say')
      .map((e) => e.text ?? '')
      .join('\n');

  it('find_slots then book in the call loop: the booking is the caller’s, from the call; another caller cannot cancel it', async () => {
    const c = await clinic();
    const voice = await clinicVoice(c.token, { conversationMode: 'gather' });
    const caller = callerNumber();
    const tuesday = weekdayAhead(2);

    const call = await play(voice, caller, [
      { speech: `find_slots service="limpieza dental" from=${tuesday} to=${tuesday}`, confidence: 0.9 },
      { speech: `book start=${tuesday}T10:30 service=Limpieza customer_name="Marta Gil" customer_confirmed=true`, confidence: 0.9 },
    ]);

    expect(call.httpStatuses.every((s) => s === 200)).toBe(true);
    // Not streamed: every answer came as <Say> in the <Gather> loop.
    expect(call.relaySessions).toEqual([]);
    const heard = said(call);
    expect(heard).toContain(`returned: Free times for Limpieza dental (30 min)`);
    expect(heard).toContain('a las 09:00, con Dra. García');
    expect(heard).toMatch(/Tool book returned: Booked: Limpieza dental, martes \d+ de \w+ a las 10:30, with Dra\. García, for Marta Gil/);

    const stored = await callRepo().getBySid(c.userId, call.callSid);
    expect(stored?.conversationMode).toBe('gather');
    const [booking, ...none] = await bookingsOf(c);
    expect(none).toEqual([]);
    expect(booking).toMatchObject({
      status: 'confirmed',
      serviceId: c.service._id,
      staffId: c.staff._id,
      channel: 'voice',
      bookedBy: 'agent',
      agentId: c.agent._id,
      callId: stored!.id,
      customer: { name: 'Marta Gil', phone: caller },
    });
    expect(localOf(booking!.start)).toBe(`${tuesday}T10:30`);

    // A second caller names Marta's booking: not theirs, so not found, and nothing changes.
    const other = await play(voice, callerNumber(), [{ speech: `cancel_booking booking_id=${booking!._id} customer_confirmed=true`, confidence: 0.9 }]);
    expect(said(other)).toMatch(/returned: No appointment of this customer has that booking_?id/);
    // (The booking-events worker may link the booking's contact meanwhile: compare what a cancel would change.)
    const after = await bookingsOf(c);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ _id: booking!._id, status: 'confirmed', start: booking!.start, end: booking!.end, customer: { name: 'Marta Gil', phone: caller } });
    await drainQueues(); // the calls' summaries and the booking's change, before the stack stops
  }, 90_000);
});

describe('an agent’s booking reaches the owner’s Google Calendar', () => {
  /** The clinic connects its Google account through the fake OAuth and chooses "Citas" for the bookings' events. */
  async function withGoogle(c: Clinic): Promise<string> {
    const id = randomUUID().slice(0, 8);
    const email = `clinica-${id}@gmail.test`;
    const citas = `citas-${id}@group.calendar.google.com`;
    const { landed } = await connectGoogle(c.token, { email, calendars: [{ id: citas, summary: 'Citas de la clínica' }] });
    expect(landed).toMatch(/googleCalendar=connected$/);
    const saved = await must<GoogleCalendarStatus>(api('PUT', '/api/integrations/google-calendar', { token: c.token, body: { businessCalendarIds: [], eventsCalendarId: citas, staff: [] } }));
    expect(saved).toMatchObject({ connected: true, email, eventsCalendarId: citas });
    return citas;
  }

  it('booked on WhatsApp: the event is in the chosen calendar with the booking’s times; the agent’s cancel deletes it', async () => {
    const c = await clinic();
    const citas = await withGoogle(c);
    const wa = await connectWhatsApp(c.token);
    const ana = waCustomer('Ana Pérez', `346${randomDigits(8)}`);
    const thursday = weekdayAhead(4);

    const booked = await sayOnWhatsApp(wa, ana, `book start=${thursday}T12:00 service=Limpieza customer_name="Ana Pérez" customer_confirmed=true`, 'book');
    expect(booked).toContain('Booked: Limpieza dental');
    const [booking] = await bookingsOf(c);
    expect(booking).toMatchObject({ status: 'confirmed', channel: 'whatsapp', bookedBy: 'agent', customer: { name: 'Ana Pérez', phone: `+${ana.waId}` } });

    await drainQueues();
    const events = (await googleEvents(citas)).filter((e) => e.summary.includes('Ana Pérez'));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ status: 'confirmed', summary: 'Ana Pérez · Limpieza dental · Dra. García', start: { dateTime: booking!.start }, end: { dateTime: booking!.end } });
    expect(localOf(events[0]!.start.dateTime)).toBe(`${thursday}T12:00`);

    const cancelled = await sayOnWhatsApp(wa, ana, `cancel_booking booking_id=${booking!._id} customer_confirmed=true`, 'cancel_booking');
    expect(cancelled).toContain('Cancelled: Limpieza dental');
    await drainQueues();
    expect((await googleEvents(citas)).filter((e) => e.id === events[0]!.id).map((e) => e.status)).toEqual(['cancelled']);
  }, 90_000);
});
