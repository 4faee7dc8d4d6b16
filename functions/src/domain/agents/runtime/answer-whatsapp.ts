/**
 * answerAs with the agent's built-in WhatsApp tools (issue 31) filled in: what the WhatsApp
 * channel and the test chat answer with (through index.ts). The call loop and the voice relay take
 * answerAs from answer.ts instead, so their bundles (first-contact budget) leave the tools out.
 */
import { answerAs as answerWithout, type AnswerDeps, type AnswerTurn } from './answer.js';
import type { Channel } from './prompt.js';
import type { AgentReply } from './run-agent.js';
import { whatsappToolsRuntime } from './whatsapp-tools.js';

export function answerAs(channel: Channel, deps: AnswerDeps, turn: AnswerTurn): Promise<AgentReply> {
  return answerWithout(channel, { ...deps, whatsappTools: deps.whatsappTools ?? whatsappToolsRuntime }, turn);
}
