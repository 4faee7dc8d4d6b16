/**
 * The getting-started checklist (issue 19): each step's done flag from the account's own data
 * (contract/getting-started.ts says what counts), read in a few requests by the store
 * (adapters/dynamo/getting-started.ts); only "hidden" is a preference the owner sets.
 */
import { GETTING_STARTED_STEPS, type GettingStarted, type GettingStartedStepId } from '../../contract/getting-started.js';

/** What the store reads for one user; every flag already scoped to that user's partition. */
export interface GettingStartedFacts {
  chatgptConnected: boolean;
  channelConnected: boolean;
  /** The oldest agent's id, null without agents. */
  firstAgentId: string | null;
  hasKnowledge: boolean;
  /** An agent carries the tested marker (`testedAt`, set by the agent chat's markTested). */
  agentTested: boolean;
  /** WhatsApp conversations and voice calls stored now (counters: a delete or a person's erasure moves them). */
  conversations: number;
  /** Booking staff (or rooms) and services (their cap counters). */
  bookingStaff: number;
  bookingServices: number;
  hidden: boolean;
}

export interface GettingStartedStore {
  facts(userId: string): Promise<GettingStartedFacts>;
  setHidden(userId: string, hidden: boolean, at: string): Promise<void>;
}

export function gettingStartedFrom(facts: GettingStartedFacts): GettingStarted {
  const done: Record<GettingStartedStepId, boolean> = {
    chatgpt: facts.chatgptConnected,
    agent: facts.firstAgentId !== null,
    knowledge: facts.hasKnowledge,
    channel: facts.channelConnected,
    test: facts.agentTested || facts.conversations > 0,
    bookings: facts.bookingStaff > 0 && facts.bookingServices > 0,
  };
  const steps = GETTING_STARTED_STEPS.map((id) => ({ id, done: done[id] }));
  return { steps, allDone: steps.every((s) => s.done), hidden: facts.hidden, agentId: facts.firstAgentId };
}

export function createGettingStarted(deps: { store: GettingStartedStore; now?: () => number }) {
  const now = deps.now ?? Date.now;
  return {
    async get(userId: string): Promise<GettingStarted> {
      return gettingStartedFrom(await deps.store.facts(userId));
    },
    async setHidden(userId: string, hidden: boolean): Promise<GettingStarted> {
      await deps.store.setHidden(userId, hidden, new Date(now()).toISOString());
      return gettingStartedFrom(await deps.store.facts(userId));
    },
  };
}
