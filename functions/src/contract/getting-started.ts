/**
 * The dashboard's getting-started checklist (issue 19): GET /api/dashboard/getting-started answers
 * each first step's done flag, derived from the account's data, never from clicks; PUT hides or
 * shows the checklist. Browser-safe: no Node imports.
 */
import * as z from 'zod/mini';
import './zod-locale.js';

/** In the order a new owner does them; the UI links each one to its screen. */
export const GETTING_STARTED_STEPS = ['chatgpt', 'agent', 'knowledge', 'channel', 'test', 'bookings'] as const;
export type GettingStartedStepId = (typeof GETTING_STARTED_STEPS)[number];

/**
 * - chatgpt: an active ChatGPT integration.
 * - agent: at least one agent.
 * - knowledge: an agent has a processed file or web page (status completed) or a knowledge entry.
 * - channel: an active WhatsApp Business or Twilio Voice integration.
 * - test: an agent answered in the Test Agent chat (or through the chat API), or a WhatsApp
 *   conversation or a voice call exists.
 * - bookings (issue 30): at least one staff member or room and one service (the agent can book).
 */
export interface GettingStartedStep {
  id: GettingStartedStepId;
  done: boolean;
}

export interface GettingStarted {
  steps: GettingStartedStep[];
  allDone: boolean;
  /** The owner hid the checklist (PUT {hidden: true}). */
  hidden: boolean;
  /** The agent the knowledge and test steps link to (the oldest one); null without agents. */
  agentId: string | null;
}

export const gettingStartedMessages = {
  hiddenInvalid: 'Hidden must be true or false',
} as const;

/** PUT /api/dashboard/getting-started (pure: the contract barrel reaches the login route, which never uses it). */
export const gettingStartedUpdate = /* @__PURE__ */ z.object({
  hidden: /* @__PURE__ */ z.boolean({ error: gettingStartedMessages.hiddenInvalid }),
});
export type GettingStartedUpdate = z.infer<typeof gettingStartedUpdate>;
