import { describe, expect, it } from 'vitest';
import { createGettingStarted, gettingStartedFrom, type GettingStartedFacts, type GettingStartedStore } from '../../../src/domain/dashboard/getting-started.js';

const none: GettingStartedFacts = {
  chatgptConnected: false,
  channelConnected: false,
  firstAgentId: null,
  hasKnowledge: false,
  agentTested: false,
  conversations: 0,
  bookingStaff: 0,
  bookingServices: 0,
  hidden: false,
};
const done = (facts: Partial<GettingStartedFacts>) => gettingStartedFrom({ ...none, ...facts }).steps.filter((s) => s.done).map((s) => s.id);

describe('getting-started steps', () => {
  it('maps each fact to its step, in the checklist order', () => {
    expect(done({})).toEqual([]);
    expect(done({ chatgptConnected: true })).toEqual(['chatgpt']);
    expect(done({ firstAgentId: 'A1' })).toEqual(['agent']);
    expect(done({ hasKnowledge: true })).toEqual(['knowledge']);
    expect(done({ channelConnected: true })).toEqual(['channel']);
  });

  it('counts a tested agent or any conversation or call as the test step', () => {
    expect(done({ agentTested: true })).toEqual(['test']);
    expect(done({ conversations: 1 })).toEqual(['test']);
  });

  it('counts bookings as set up with a staff member or room and a service, not one of them alone', () => {
    expect(done({ bookingStaff: 1 })).toEqual([]);
    expect(done({ bookingServices: 2 })).toEqual([]);
    expect(done({ bookingStaff: 1, bookingServices: 1 })).toEqual(['bookings']);
  });

  it('is all done only with every step, and passes hidden and the agent to link to through', () => {
    const all = gettingStartedFrom({ chatgptConnected: true, channelConnected: true, firstAgentId: 'A1', hasKnowledge: true, agentTested: true, conversations: 0, bookingStaff: 2, bookingServices: 1, hidden: true });
    expect(all).toMatchObject({ allDone: true, hidden: true, agentId: 'A1' });
    expect(gettingStartedFrom({ ...none, chatgptConnected: true }).allDone).toBe(false);
  });

  it('setHidden stores the choice with the time and answers the checklist read after it', async () => {
    const calls: unknown[] = [];
    let hidden = false;
    const store: GettingStartedStore = {
      facts: async () => ({ ...none, hidden }),
      setHidden: async (userId, value, at) => {
        calls.push([userId, value, at]);
        hidden = value;
      },
    };

    const out = await createGettingStarted({ store, now: () => Date.parse('2026-11-26T08:00:00Z') }).setHidden('u1', true);

    expect(calls).toEqual([['u1', true, '2026-11-26T08:00:00.000Z']]);
    expect(out.hidden).toBe(true);
  });
});
