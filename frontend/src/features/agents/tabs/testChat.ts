/**
 * The Test Agent conversation (SPEC §2 Test Agent, §3 Chat message): one conversation in memory,
 * for one agent. It starts empty, survives switching tabs, and starts over when another agent is
 * opened or the user clears it; a reply that arrives after that is dropped.
 */
import { useSyncExternalStore } from 'react';
import { AGENT_LIMITS, type ChatMessage } from '@agentdesk/functions/contract';
import { agentKnowledgeApi } from '../../../api/agentKnowledge';

export interface TestChat {
  agentId: string;
  messages: ChatMessage[];
  /** A reply is on its way. */
  pending: boolean;
  /** Bumped on every start-over, so late replies of an older conversation are ignored. */
  generation: number;
}

let chat: TestChat = { agentId: '', messages: [], pending: false, generation: 0 };
const listeners = new Set<() => void>();

function setChat(next: TestChat) {
  chat = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The conversation for this agent (a fresh one when another agent's is in memory). */
function chatFor(agentId: string): TestChat {
  if (chat.agentId !== agentId) setChat({ agentId, messages: [], pending: false, generation: chat.generation + 1 });
  return chat;
}

/** The tab opened for `agentId`: another agent's conversation in memory is dropped. */
export function openTestChat(agentId: string): void {
  chatFor(agentId);
}

export function clearTestChat(agentId: string): void {
  setChat({ agentId, messages: [], pending: false, generation: chat.generation + 1 });
}

/** The history the server gets with a new message: role and content, oldest first, at most the last 50. */
export function historyForRequest(messages: readonly ChatMessage[]): { role: 'user' | 'assistant'; content: string }[] {
  return messages.slice(-AGENT_LIMITS.chatHistory).map(({ role, content }) => ({ role, content }));
}

/**
 * Sends `text` to the agent with the conversation so far. The user's message shows at once; on
 * failure it is taken back out (the caller puts the text back in the input) and the error rethrown.
 */
export async function sendTestMessage(agentId: string, text: string): Promise<void> {
  const before = chatFor(agentId);
  const { generation } = before;
  const history = historyForRequest(before.messages);
  const mine: ChatMessage = { role: 'user', content: text, timestamp: new Date().toISOString() };
  setChat({ ...before, messages: [...before.messages, mine], pending: true });
  try {
    const reply = await agentKnowledgeApi.chat(agentId, { message: text, messages: history });
    if (chat.agentId !== agentId || chat.generation !== generation) return;
    const answer: ChatMessage = {
      role: 'assistant',
      content: reply.reply,
      timestamp: reply.timestamp,
      agent: reply.agent.name,
      details: {
        toolCalls: reply.toolCalls ?? [],
        sources: reply.sources ?? [],
        escalation: reply.escalation ?? null,
        // What WhatsApp would send with the reply (issue 31).
        ...(reply.outbound?.length ? { outbound: reply.outbound } : {}),
        ...(reply.choices ? { choices: reply.choices } : {}),
      },
    };
    setChat({ ...chat, messages: [...chat.messages, answer], pending: false });
  } catch (err) {
    if (chat.agentId === agentId && chat.generation === generation) {
      setChat({ ...chat, messages: chat.messages.filter((m) => m !== mine), pending: false });
      throw err;
    }
  }
}

const EMPTY: Omit<TestChat, 'agentId'> = { messages: [], pending: false, generation: -1 };

/** The conversation with `agentId`, re-rendering on every change. */
export function useTestChat(agentId: string): TestChat {
  const snapshot = useSyncExternalStore(subscribe, () => chat);
  return snapshot.agentId === agentId ? snapshot : { ...EMPTY, agentId };
}
