/** The agent runtime, for the channels that answer with an agent (test chat, WhatsApp, voice). */
export {
  runAgent,
  RUNTIME_LIMITS,
  DEFAULT_REPLIES,
  TurnCancelledError,
  type AgentReply,
  type AgentStream,
  type HistoryMessage,
  type RunAgentInput,
} from './run-agent.js';
// With the WhatsApp tools (issue 31); the voice channels import answer.ts's answerAs, without them.
export { answerAs } from './answer-whatsapp.js';
export type { AnswerDeps, AnswerTurn } from './answer.js';
export type { Channel } from './prompt.js';
export { customerE164, type BookingTurn } from './booking-tools.js';
export type { ToolExecutor, ToolOutcome, ToolCallOptions } from './ports.js';
