/**
 * Tools as the model sees them: each custom tool becomes a function definition (JSON Schema from
 * its parameters), plus the two built-ins every agent has. Also the checks on what the model
 * sends back (the arguments are JSON text that may be invalid or incomplete).
 */
import type { ToolParameterType } from '../../../contract/agents.js';
import type { ModelToolSpec } from '../../ai/ports.js';
import type { ToolRecord } from '../ports.js';

export const SEARCH_KNOWLEDGE = 'search_knowledge';
export const ESCALATE_TO_HUMAN = 'escalate_to_human';

const parameterSchema = (type: ToolParameterType, description: string): Record<string, unknown> => {
  // OpenAI refuses an array schema without `items` ("array schema missing items"); the tool
  // form has no item type, so any scalar or object is allowed.
  if (type === 'array') return { type, description, items: { type: ['string', 'number', 'boolean', 'object'] } };
  return { type, description };
};

/** JSON Schema of a custom tool's arguments. */
export function customToolSchema(tool: Pick<ToolRecord, 'properties' | 'required'>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(tool.properties)) properties[name] = parameterSchema(p.type, p.description);
  return {
    type: 'object',
    properties,
    required: tool.required.filter((r) => r in tool.properties),
    additionalProperties: false,
  };
}

export const builtInToolSpecs: readonly ModelToolSpec[] = [
  {
    name: SEARCH_KNOWLEDGE,
    description:
      "Search the agent's knowledge (uploaded documents and web pages) for information to answer the customer. Returns numbered excerpts with their sources.",
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to look for, in a few words or a question' } },
      required: ['query'],
      additionalProperties: false,
    },
  },
  {
    name: ESCALATE_TO_HUMAN,
    description:
      'Hand the conversation to a human team member: when the customer asks for a person, is upset, or needs something you cannot do or answer.',
    parameters: {
      type: 'object',
      properties: { reason: { type: 'string', description: 'Why a human is needed, in one sentence' } },
      required: ['reason'],
      additionalProperties: false,
    },
  },
];

/**
 * Every tool offered to the model: the agent's custom tools, then the built-ins (with the booking
 * tools when `extra` holds them). A custom tool stored under a built-in's name before that name was
 * reserved is left out: the model cannot be offered two functions of one name.
 */
export function toolSpecs(tools: readonly ToolRecord[], extra: readonly ModelToolSpec[] = []): ModelToolSpec[] {
  const builtIns = [...builtInToolSpecs, ...extra];
  const reserved = new Set(builtIns.map((b) => b.name));
  return [
    ...tools.filter((t) => !reserved.has(t.name)).map((t) => ({ name: t.name, description: t.description, parameters: customToolSchema(t) })),
    ...builtIns,
  ];
}

export type ParsedArguments = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

/** The model's argument text as an object; an empty text is {}. */
export function parseToolArguments(text: string): ParsedArguments {
  if (text.trim() === '') return { ok: true, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'Invalid arguments: they are not valid JSON. Call the tool again with a JSON object of its parameters.' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'Invalid arguments: they must be a JSON object of the tool parameters. Call the tool again.' };
  }
  return { ok: true, args: value as Record<string, unknown> };
}

const typeMatches = (type: ToolParameterType, v: unknown): boolean => {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
  }
};

export type CheckedArguments = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

/**
 * Arguments checked against the tool's parameters before any request is made: every required
 * parameter present (a blank string counts as missing), each known parameter of its declared
 * type (numbers and booleans sent as text are accepted when they read as one), unknown ones
 * dropped (the schema forbids them; they are never forwarded to the endpoint).
 */
export function checkToolArguments(tool: Pick<ToolRecord, 'properties' | 'required'>, args: Record<string, unknown>): CheckedArguments {
  const missing = tool.required.filter((r) => {
    const v = args[r];
    return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
  });
  if (missing.length > 0) {
    return { ok: false, error: `Missing required parameter${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}. Ask the customer for ${missing.length > 1 ? 'them' : 'it'} if you do not know ${missing.length > 1 ? 'them' : 'it'}.` };
  }
  const out: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(tool.properties)) {
    let v = args[name];
    if (v === undefined || v === null) continue;
    if (!typeMatches(p.type, v) && typeof v === 'string') {
      const s = v.trim();
      if (p.type === 'number' && s !== '' && Number.isFinite(Number(s))) v = Number(s);
      else if (p.type === 'boolean' && (s === 'true' || s === 'false')) v = s === 'true';
    }
    if (!typeMatches(p.type, v)) return { ok: false, error: `Invalid parameter ${name}: it must be ${p.type === 'array' || p.type === 'object' ? 'an' : 'a'} ${p.type}.` };
    out[name] = v;
  }
  return { ok: true, args: out };
}
