/**
 * Server-sent events for `stream: true`, the shape OpenAI's Chat Completions API streams
 * (`chat.completion.chunk` objects, then `data: [DONE]`): a first chunk with the role, the content
 * in small token-like pieces, tool calls as index-keyed deltas (id, name, then the arguments in
 * pieces), a last chunk with `finish_reason`, and a usage chunk when `stream_options.include_usage`.
 * Delays make latency measurable: the first piece after `firstTokenMs`, then one every `tokenMs`.
 * A client that hangs up (a caller's barge-in) stops the stream at the next piece.
 */
import type { ServerResponse } from 'node:http';

export interface StreamDelays {
  /** Before the first content or tool piece (the model's "time to first token"). */
  firstTokenMs: number;
  /** Between two pieces. */
  tokenMs: number;
}

export interface StreamedCompletion {
  id: string;
  created: number;
  model: string;
  content: string | null;
  toolCalls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  finishReason: 'stop' | 'tool_calls';
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** Words with their leading space, so that joining the pieces gives the text back exactly. */
export function tokenPieces(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Writes the completion as SSE; resolves with the pieces sent (fewer when the client left). */
export async function streamCompletion(res: ServerResponse, completion: StreamedCompletion, delays: StreamDelays, headers: Record<string, string>): Promise<number> {
  let gone = false;
  res.on('close', () => (gone = true));
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
  const chunk = (delta: object, finishReason: string | null = null) => ({
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
    system_fingerprint: 'fp_fake_openai',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const write = (data: object | '[DONE]') => {
    if (!gone) res.write(`data: ${data === '[DONE]' ? data : JSON.stringify(data)}\n\n`);
  };

  write(chunk({ role: 'assistant', content: '', refusal: null }));
  const pieces: object[] = tokenPieces(completion.content ?? '').map((content) => ({ content }));
  (completion.toolCalls ?? []).forEach((call, index) => {
    pieces.push({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] });
    for (const part of call.function.arguments.match(/[\s\S]{1,12}/g) ?? []) pieces.push({ tool_calls: [{ index, function: { arguments: part } }] });
  });

  let sent = 0;
  for (const delta of pieces) {
    await sleep(sent === 0 ? delays.firstTokenMs : delays.tokenMs);
    if (gone) return sent;
    write(chunk(delta));
    sent++;
  }
  write(chunk({}, completion.finishReason));
  if (completion.usage) write({ ...chunk({}), choices: [], usage: completion.usage });
  write('[DONE]');
  if (!gone) res.end();
  return sent;
}
