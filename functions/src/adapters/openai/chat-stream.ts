/**
 * Reading a streamed Chat Completions answer without the `openai` SDK (issue 16: the voice
 * WebSocket function must stay small, and the SDK is 147 KB of it): the server-sent events of the
 * response body, and the chunks folded into what a voice turn needs — text as it arrives, the tool
 * calls once complete, the finish reason and usage. Transport (the outbound guard, abort on
 * barge-in) is the caller's; this module only reads bytes.
 */

/** The `data:` payloads of a server-sent event stream, in order, until `[DONE]` or the end. */
export async function* sseData(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const lines = async function* () {
    for await (const bytes of body) {
      buffer += decoder.decode(bytes, { stream: true });
      let end: number;
      while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
        if (end === buffer.length - 1 && buffer[end] === '\r') break; // a CRLF split across reads
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
        yield line;
      }
    }
    buffer += decoder.decode();
    if (buffer) yield buffer;
    yield ''; // the end of the stream dispatches a pending event
  };
  for await (const line of lines()) {
    if (line === '') {
      if (data.length > 0) {
        const payload = data.join('\n');
        data = [];
        if (payload === '[DONE]') return;
        yield payload;
      }
    } else if (line.startsWith('data:')) {
      data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    }
    // Comments (":"), event:, id: and retry: lines carry nothing a completion needs.
  }
}

export interface StreamedToolCall {
  id: string;
  name: string;
  /** The JSON arguments as the model wrote them (parsed by the tool runner). */
  arguments: string;
}

export type ChatStreamEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_calls'; calls: StreamedToolCall[] }
  | { type: 'done'; finishReason: string | null; usage?: { promptTokens: number; completionTokens: number } };

interface ChunkShape {
  choices?: Array<{
    delta?: { content?: string | null; tool_calls?: Array<{ index: number; id?: string; function?: { name?: string; arguments?: string } }> };
    finish_reason?: string | null;
  }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string };
}

/** An error object sent inside the stream (the provider failed mid-answer). */
export class StreamedModelError extends Error {}

/** Folds `chat.completion.chunk` payloads into text pieces, complete tool calls and the end. */
export async function* chatStreamEvents(payloads: AsyncIterable<string>): AsyncGenerator<ChatStreamEvent> {
  const calls: StreamedToolCall[] = [];
  let finishReason: string | null = null;
  let usage: { promptTokens: number; completionTokens: number } | undefined;
  for await (const payload of payloads) {
    const chunk = JSON.parse(payload) as ChunkShape;
    if (chunk.error) throw new StreamedModelError(chunk.error.message ?? 'The model stream failed');
    if (chunk.usage) usage = { promptTokens: chunk.usage.prompt_tokens ?? 0, completionTokens: chunk.usage.completion_tokens ?? 0 };
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    if (choice.delta?.content) yield { type: 'text', text: choice.delta.content };
    for (const delta of choice.delta?.tool_calls ?? []) {
      const call = (calls[delta.index] ??= { id: '', name: '', arguments: '' });
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.name += delta.function.name;
      if (delta.function?.arguments) call.arguments += delta.function.arguments;
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  const complete = calls.filter((c) => c && c.name);
  if (complete.length > 0) yield { type: 'tool_calls', calls: complete };
  yield { type: 'done', finishReason, ...(usage ? { usage } : {}) };
}
