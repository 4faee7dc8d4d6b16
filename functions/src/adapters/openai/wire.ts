/**
 * The OpenAI wire format both model adapters share, without the `openai` SDK (the voice relay's
 * fetch adapter must not pull it in): the chat request body with the model quirks, the message
 * mapping, and the embeddings' batching and decoding.
 *
 * Model quirks: reasoning models (gpt-5, gpt-5-mini, gpt-5-nano, o1/o3/o4…) reject `max_tokens`
 * (they take `max_completion_tokens`, which also counts reasoning tokens) and any temperature but
 * the default; they get reasoning_effort 'minimal' so a short answer is not eaten by reasoning.
 * Older models get `max_tokens`, which every OpenAI-compatible server understands.
 */
import { ModelError, type CompletionRequest, type ModelMessage } from '../../domain/ai/ports.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** Default bound of one chat call: under API Gateway's 29 s with room for the rest of the request. */
export const DEFAULT_CHAT_TIMEOUT_MS = 25_000;
export const EMBED_TIMEOUT_MS = 60_000;
export const VERIFY_TIMEOUT_MS = 10_000;
/** OpenAI takes up to 2048 inputs and 300k tokens per embeddings request; we stay far below. */
export const EMBED_BATCH_MAX_INPUTS = 96;
export const EMBED_BATCH_MAX_CHARS = 250_000;
export const EMBED_PARALLEL = 2;

/** gpt-5 family and o-series: max_completion_tokens, default temperature only. */
export function isReasoningModel(model: string): boolean {
  return /^(gpt-5(?!-chat)|o\d)/.test(model);
}

/** reasoning_effort 'minimal' exists for gpt-5, gpt-5-mini and gpt-5-nano (not gpt-5.1+, not o-series). */
export const supportsMinimalEffort = (model: string) => /^gpt-5(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?$/.test(model);

/** OpenAI's content parts of a user message: text, and an image by URL (a data: URL here; detail auto). */
export type WireContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export type WireMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | WireContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A Chat Completions request body (the part both adapters send; the fetch adapter adds `stream`). */
export interface ChatCompletionBody {
  model: string;
  messages: WireMessage[];
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  reasoning_effort?: 'minimal';
  tools?: Array<{ type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } }>;
  response_format?: { type: 'json_schema'; json_schema: { name: string; schema: Record<string, unknown>; strict: boolean } };
}

export function toWireMessage(message: ModelMessage): WireMessage {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return {
        role: 'user',
        content:
          typeof message.content === 'string'
            ? message.content
            : message.content.map((part): WireContentPart => (part.type === 'text' ? part : { type: 'image_url', image_url: { url: part.dataUrl } })),
      };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls?.length
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

/** The request body for one chat completion (exported for unit tests of the model quirks). */
export function chatCompletionBody(request: CompletionRequest): ChatCompletionBody {
  const reasoning = isReasoningModel(request.model);
  return {
    model: request.model,
    messages: request.messages.map(toWireMessage),
    ...(reasoning
      ? {
          max_completion_tokens: request.maxTokens,
          ...(supportsMinimalEffort(request.model) ? { reasoning_effort: 'minimal' as const } : {}),
        }
      : { max_tokens: request.maxTokens, temperature: request.temperature }),
    ...(request.tools?.length
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            function: { name: tool.name, description: tool.description, parameters: tool.parameters },
          })),
        }
      : {}),
    ...(request.jsonSchema
      ? {
          response_format: {
            type: 'json_schema' as const,
            json_schema: { name: request.jsonSchema.name, schema: request.jsonSchema.schema, strict: true },
          },
        }
      : {}),
  };
}

export function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0 && Math.abs(norm - 1) > 1e-6) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

export function decodeEmbedding(embedding: unknown): Float32Array {
  if (typeof embedding === 'string') {
    const bytes = Buffer.from(embedding, 'base64');
    const out = new Float32Array(bytes.length / 4);
    for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
    return out;
  }
  if (Array.isArray(embedding)) return Float32Array.from(embedding as number[]);
  throw new ModelError('unavailable', 'Malformed embedding in the response');
}

/** Split texts into batches of at most EMBED_BATCH_MAX_INPUTS inputs and ~EMBED_BATCH_MAX_CHARS characters. */
export function embeddingBatches(texts: readonly string[]): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const raw of texts) {
    // The API rejects empty inputs; a blank chunk embeds as a single space.
    const text = raw.trim() === '' ? ' ' : raw;
    if (current.length > 0 && (current.length >= EMBED_BATCH_MAX_INPUTS || chars + text.length > EMBED_BATCH_MAX_CHARS)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(text);
    chars += text.length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** Runs `embedBatch` over the batches of `texts`, EMBED_PARALLEL at a time; vectors in input order. */
export async function embedInBatches(texts: readonly string[], embedBatch: (input: string[]) => Promise<Float32Array[]>): Promise<Float32Array[]> {
  const batches = embeddingBatches(texts);
  const results: Float32Array[][] = new Array(batches.length);
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const index = next++;
      results[index] = await embedBatch(batches[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(EMBED_PARALLEL, batches.length) }, worker));
  return results.flat();
}

/** One response's embeddings, in input order, checked (count, dimensions) and L2-normalised. */
export function embeddingVectors(data: ReadonlyArray<{ index: number; embedding: unknown }>, inputs: number, dimensions: number): Float32Array[] {
  const sorted = [...data].sort((a, b) => a.index - b.index);
  if (sorted.length !== inputs) throw new ModelError('unavailable', `Expected ${inputs} embeddings, got ${sorted.length}`);
  return sorted.map((item) => {
    const vector = decodeEmbedding(item.embedding);
    if (vector.length !== dimensions) {
      throw new ModelError('bad_request', `Embeddings have ${vector.length} dimensions, expected ${dimensions}`);
    }
    return normalise(vector);
  });
}
