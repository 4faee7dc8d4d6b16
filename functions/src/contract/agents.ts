/**
 * Agents contract (SPEC §2 Agents + Agent detail, §3 Agent/Agent file/Agent URL/Agent tool/Chat message,
 * §4 URL status and AI-improve, §5 agent/tool/file/URL/chat rules, §7 Agents, §8, §9).
 * Browser-safe: no Node imports. Validation messages are the spec's exact texts where it gives them.
 */
import * as z from 'zod/mini';
import './zod-locale.js';
import { AGENT_LANGUAGES, AGENT_LIMITS, type AgentLanguage } from './agent-limits.js';
import { bookingMessages } from './bookings.js';
import { isHttpUrl } from './urls.js';
import { mediaMessages, type AgentWhatsAppTools, type BusinessLocation, type MessageInteractive } from './whatsapp-media.js';

// The limits and knowledge defaults live in a module without zod, so the runtime's bundles (the voice relay)
// take them without every schema of this file.
export { AGENT_LANGUAGES, AGENT_LIMITS, DEFAULT_MIN_RELEVANCE, type AgentLanguage } from './agent-limits.js';

/** SPEC §9: 50 MB each; PDF, TXT, DOC, DOCX. */
export const AGENT_FILE_MAX_BYTES = 50 * 1024 * 1024;
/** The spec's multipart POST goes through API Gateway and Lambda (6 MB payload); bigger files use the presigned upload. */
export const AGENT_FILE_MULTIPART_MAX_BYTES = 4 * 1024 * 1024;
export const AGENT_FILE_TYPES = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
} as const;
export type AgentFileKind = keyof typeof AGENT_FILE_TYPES;
/** The file input's accept attribute. */
export const AGENT_FILE_ACCEPT = '.pdf,.txt,.doc,.docx,application/pdf,text/plain,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The kind of an upload, by extension first (browsers send '' or octet-stream for .doc on some systems), else by MIME type. */
export function agentFileKind(name: string, mimeType: string): AgentFileKind | null {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (ext && ext in AGENT_FILE_TYPES) return ext as AgentFileKind;
  const byMime = (Object.entries(AGENT_FILE_TYPES) as [AgentFileKind, string][]).find(([, m]) => m === mimeType);
  return byMime ? byMime[0] : null;
}

export type RejectedFileReason = 'too large, max 50MB' | 'unsupported type';

/** Why a file cannot be uploaded, or null when it can. */
export function rejectFileReason(file: { name: string; size: number; type: string }): RejectedFileReason | null {
  if (!agentFileKind(file.name, file.type)) return 'unsupported type';
  if (file.size > AGENT_FILE_MAX_BYTES) return 'too large, max 50MB';
  return null;
}

/** SPEC §5: 'Invalid files: {name} (too large, max 50MB)' or '(unsupported type)', several joined by ', '. */
export function invalidFilesMessage(rejected: readonly { name: string; reason: RejectedFileReason }[]): string {
  return `Invalid files: ${rejected.map((r) => `${r.name} (${r.reason})`).join(', ')}`;
}

export const agentMessages = {
  nameRequired: 'Name is required',
  nameTooLong: `Name must be ${AGENT_LIMITS.name} characters or less`,
  descriptionRequired: 'Description is required',
  descriptionTooLong: `Description must be ${AGENT_LIMITS.description} characters or less`,
  objectiveRequired: 'Objective is required',
  objectiveTooLong: `Objective must be ${AGENT_LIMITS.objective} characters or less`,
  instructionsTooLong: `Instructions must be ${AGENT_LIMITS.instructions} characters or less`,
  knowledgeBaseTooLong: `Knowledge base must be ${AGENT_LIMITS.knowledgeBase} characters or less`,
  priorityRange: 'Priority must be between 0 and 10',
  enabledInvalid: 'Enabled must be true or false',
  notFound: 'Agent not found',
  noEnabledAgent: 'No enabled agent to answer. Enable an agent first.',
  // An enabled agent always has instructions: new agents start disabled (issue 19).
  instructionsRequiredToEnable: 'Add instructions before enabling this agent',
  instructionsRequiredWhileEnabled: 'Disable this agent before removing its instructions',
  created: 'Agent created successfully',
  updated: 'Agent updated successfully',
  deleted: 'Agent deleted successfully',
  activated: 'Agent activated successfully',
  deactivated: 'Agent deactivated successfully',
  // Files
  filesRequired: 'Choose at least one file',
  tooManyFiles: `Upload at most ${AGENT_LIMITS.filesPerRequest} files at a time`,
  fileTooLargeForDirectUpload: 'Files over 4 MB must be uploaded with the upload link (POST /api/agents/{id}/files/uploads)',
  fileNotFound: 'File not found',
  fileNotUploaded: 'The file has not been uploaded yet',
  fileSizeMismatch: 'The uploaded file does not have the size declared for it. Upload it again.',
  // Why ingestion refused a file whose content is not what its name and type say (sniffed).
  fileIsProgram: 'This file is a program, not a document. Only PDF, TXT, DOC and DOCX documents are accepted.',
  fileNotReallyPdf: 'This file is not really a PDF: its content does not match its type.',
  fileNotReallyWord: 'This file is not really a Word document: its content does not match its type.',
  fileNotReallyText: 'This file is not really a text file: its content does not match its type.',
  fileDeleted: 'File deleted successfully',
  // Issue 34: storage outages and reprocessing.
  storageUnavailable: 'Storage is temporarily unavailable. Please try again in a moment.',
  fileNotFailed: 'Only a file that failed can be reprocessed',
  reprocessing: 'Reprocessing started',
  filesUploaded: (n: number) => (n === 1 ? '1 file uploaded successfully' : `${n} files uploaded successfully`),
  // URLs
  urlsRequired: 'Enter at least one URL',
  tooManyUrls: `Add at most ${AGENT_LIMITS.urlsPerRequest} URLs at a time`,
  urlInvalid: (line: string) => `Invalid URL: ${line}`,
  urlNotFound: 'URL not found',
  urlsAdded: (n: number) => (n === 1 ? '1 URL added' : `${n} URLs added`),
  urlRefreshing: 'URL refresh started',
  urlNotFailed: 'Only a URL that failed can be reprocessed',
  urlDeleted: 'URL deleted successfully',
  // Tools
  toolNameRequired: 'Tool name is required',
  toolNameTooLong: `Tool name must be ${AGENT_LIMITS.toolName} characters or less`,
  toolNameFormat: 'Tool name must start with a lowercase letter and use only lowercase letters, numbers and underscores',
  toolNameReserved: 'This tool name is reserved',
  toolNameTaken: 'A tool with this name already exists for this agent',
  toolDescriptionRequired: 'Description is required',
  toolDescriptionTooLong: `Description must be ${AGENT_LIMITS.toolDescription} characters or less`,
  toolTypeInvalid: 'Tool type must be http_request',
  endpointRequired: 'Endpoint is required',
  endpointInvalid: 'Endpoint must be a valid http(s) URL',
  methodInvalid: 'Method must be one of GET, POST, PUT, DELETE, PATCH',
  headerKeyInvalid: 'Header key may contain only letters, numbers and dashes',
  headerValueWithoutKey: 'Header value needs a header key',
  headerValueInvalid: 'Header value may contain only printable ASCII characters',
  tooManyParameters: `A tool can have at most ${AGENT_LIMITS.toolParameters} parameters`,
  parameterNameInvalid: 'Parameter names must start with a letter and use only letters, numbers and underscores',
  parameterTypeRequired: 'Parameter type is required',
  parameterTypeInvalid: 'Parameter type must be one of string, number, boolean, object, array',
  parameterDescriptionRequired: 'Parameter description is required',
  requiredUnknown: 'Required parameters must be defined',
  toolNotFound: 'Tool not found',
  toolCreated: 'Tool created successfully',
  toolUpdated: 'Tool updated successfully',
  toolDeleted: 'Tool deleted successfully',
  // Chat
  messageRequired: 'Message is required',
  messageTooLong: `Message must be ${AGENT_LIMITS.chatMessage} characters or less`,
  // Knowledge settings, entries and unanswered questions
  languageInvalid: 'Language must be es or en',
  minRelevanceRange: 'Minimum relevance must be between 0 and 1',
  entryQuestionRequired: 'Question is required',
  entryQuestionTooLong: `Question must be ${AGENT_LIMITS.entryQuestion} characters or less`,
  entryAnswerRequired: 'Answer is required',
  entryAnswerTooLong: `Answer must be ${AGENT_LIMITS.entryAnswer} characters or less`,
  tooManyEntries: `An agent can have at most ${AGENT_LIMITS.entriesPerAgent} knowledge entries`,
  entryNotFound: 'Knowledge entry not found',
  entryCreated: 'Knowledge entry added',
  entryUpdated: 'Knowledge entry updated',
  entryDeleted: 'Knowledge entry deleted',
  unansweredIdsRequired: 'Choose at least one question',
  unansweredNotFound: 'Question not found',
  unansweredAnswered: 'Answer saved: the agent will use it from now on',
  unansweredDismissed: 'Questions dismissed',
} as const;

// ---------------------------------------------------------------------------------------------
// Entities as the API returns them

export type KnowledgeStatus = 'pending' | 'completed' | 'failed';

export interface AgentFile {
  id: string;
  /** Same value as `id` (the spec's entities use _id elsewhere). */
  _id: string;
  originalName: string;
  mimeType: string;
  size: number;
  uploadedAt: string;
  /** 'uploading' until the browser's direct upload is confirmed; then pending → completed/failed. */
  status: 'uploading' | KnowledgeStatus;
  /** Why ingestion failed, written for the user. */
  error?: string;
  chunkCount?: number;
  /** "Can be sent to customers" (issue 31): the agent's send_file tool may send it on WhatsApp. Off by default. */
  shareable: boolean;
}

export interface AgentUrl {
  _id: string;
  link: string;
  /** pending is shown as 'Processing...'. */
  status: KnowledgeStatus;
  lastUpdateAt: string;
  error?: string;
  chunkCount?: number;
  /** Page title when the scrape found one. */
  title?: string;
}

export const TOOL_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
export type ToolMethod = (typeof TOOL_METHODS)[number];
export const TOOL_PARAMETER_TYPES = ['string', 'number', 'boolean', 'object', 'array'] as const;
export type ToolParameterType = (typeof TOOL_PARAMETER_TYPES)[number];
/** The built-in booking tools (issue 30), offered when the agent's Bookings switch is on. */
export const BOOKING_TOOL_NAMES = ['find_slots', 'book', 'find_my_bookings', 'reschedule', 'cancel_booking'] as const;
/** Built into every agent (the booking ones when switched on); a custom tool cannot take these names. */
export const BUILT_IN_TOOL_NAMES = ['search_knowledge', 'escalate_to_human', ...BOOKING_TOOL_NAMES] as const;

export interface AgentTool {
  _id: string;
  name: string;
  description: string;
  type: 'http_request';
  properties: Record<string, { type: ToolParameterType; description: string }>;
  required: string[];
  endpoint: string;
  method: ToolMethod;
  headerKey: string;
  /** '***' when a value is stored, '' when none. */
  headerValue: string;
  createdAt: string;
  updatedAt: string;
}

export interface Agent {
  _id: string;
  name: string;
  description: string;
  objective: string;
  instructions: string;
  knowledgeBase: string;
  priority: number;
  enabled: boolean;
  /** The language of the agent's knowledge and customers (analysis of documents and questions). Beyond the spec. */
  language: AgentLanguage;
  /** Absolute relevance (0..1) a passage needs to support an answer; below it the agent says it does not know. Beyond the spec. */
  minRelevance: number;
  /** The built-in booking tools (issue 30: find_slots, book, find_my_bookings, reschedule, cancel_booking); off by default. */
  bookingsEnabled: boolean;
  /** The built-in WhatsApp tools (issue 31: send_file, send_location, offer_choices), each off by default. */
  whatsappTools: AgentWhatsAppTools;
  files: AgentFile[];
  urls: AgentUrl[];
  tools: AgentTool[];
  /** The owner's own question + answer pairs (searched like documents). Beyond the spec. */
  entries: KnowledgeEntry[];
  createdAt: string;
  updatedAt: string;
}

/** A question + answer the owner taught the agent (searched like a document passage). */
export interface KnowledgeEntry {
  _id: string;
  question: string;
  answer: string;
  createdAt: string;
  updatedAt: string;
}

export type UnansweredChannel = 'chat' | 'whatsapp' | 'voice';

/** A customer question the agent could not answer from its knowledge (a refusal), recorded for the owner. */
export interface UnansweredQuestion {
  _id: string;
  question: string;
  channel: UnansweredChannel;
  askedAt: string;
  /** Where it was asked, for the link: the WhatsApp conversation or the call. */
  conversationId?: string;
  callId?: string;
}

/** Unanswered questions grouped by similarity (GET /api/agents/{id}/unanswered), most asked first. */
export interface UnansweredGroup {
  /** The group's representative question (the most recent wording). */
  question: string;
  count: number;
  lastAskedAt: string;
  /** Every question of the group (newest first); their ids answer or dismiss the group. */
  questions: UnansweredQuestion[];
}

// ---------------------------------------------------------------------------------------------
// Requests

/** SPEC §5 tool-name normalisation, also the form's live preview: lowercased, other characters → '_', repeats collapsed, ends trimmed. */
export function normaliseToolName(input: string): string {
  return input
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '');
}

const requiredText = (max: number, requiredMessage: string, tooLongMessage: string) =>
  z.string({ error: requiredMessage }).check(z.trim(), z.minLength(1, requiredMessage), z.maxLength(max, tooLongMessage));
const optionalText = (max: number, tooLongMessage: string) =>
  z.string().check(z.trim(), z.maxLength(max, tooLongMessage));

export const agentName = requiredText(AGENT_LIMITS.name, agentMessages.nameRequired, agentMessages.nameTooLong);
export const agentPriority = z.pipe(
  z.union([z.number({ error: agentMessages.priorityRange }), z.pipe(z.string().check(z.trim(), z.minLength(1, agentMessages.priorityRange)), z.transform(Number))], {
    error: agentMessages.priorityRange,
  }),
  z.number({ error: agentMessages.priorityRange }).check(
    z.int(agentMessages.priorityRange),
    z.gte(AGENT_LIMITS.priorityMin, agentMessages.priorityRange),
    z.lte(AGENT_LIMITS.priorityMax, agentMessages.priorityRange),
  ),
);

/** POST /api/agents (the create modal has only the name). */
export const createAgentRequest = z.object({ name: agentName });

/** The Agent Details edit form (all of SPEC §5's agent rules). */
export const agentDetailsForm = z.object({
  name: agentName,
  description: requiredText(AGENT_LIMITS.description, agentMessages.descriptionRequired, agentMessages.descriptionTooLong),
  objective: requiredText(AGENT_LIMITS.objective, agentMessages.objectiveRequired, agentMessages.objectiveTooLong),
  instructions: optionalText(AGENT_LIMITS.instructions, agentMessages.instructionsTooLong),
  knowledgeBase: optionalText(AGENT_LIMITS.knowledgeBase, agentMessages.knowledgeBaseTooLong),
  priority: agentPriority,
});
export type AgentDetailsInput = z.infer<typeof agentDetailsForm>;

/**
 * PUT /api/agents/{id}: the edit form's fields and/or `enabled` (the list's toggle sends only that).
 * Every field is optional; a present field obeys the form's rule (required ones cannot be emptied).
 */
export const updateAgentRequest = z.object({
  name: z.optional(agentDetailsForm.shape.name),
  description: z.optional(agentDetailsForm.shape.description),
  objective: z.optional(agentDetailsForm.shape.objective),
  instructions: z.optional(agentDetailsForm.shape.instructions),
  knowledgeBase: z.optional(agentDetailsForm.shape.knowledgeBase),
  priority: z.optional(agentPriority),
  enabled: z.optional(z.boolean({ error: agentMessages.enabledInvalid })),
  language: z.optional(z.enum(AGENT_LANGUAGES, { error: agentMessages.languageInvalid })),
  minRelevance: z.optional(
    z.number({ error: agentMessages.minRelevanceRange }).check(z.gte(0, agentMessages.minRelevanceRange), z.lte(1, agentMessages.minRelevanceRange)),
  ),
  bookingsEnabled: z.optional(z.boolean({ error: bookingMessages.booleanInvalid })),
  /** Issue 31: any of the three switches; an absent one is unchanged. */
  whatsappTools: z.optional(
    z.strictObject(
      {
        sendFiles: z.optional(z.boolean({ error: mediaMessages.whatsappToolsInvalid })),
        sendLocation: z.optional(z.boolean({ error: mediaMessages.whatsappToolsInvalid })),
        offerChoices: z.optional(z.boolean({ error: mediaMessages.whatsappToolsInvalid })),
      },
      { error: mediaMessages.whatsappToolsInvalid },
    ),
  ),
});
export type UpdateAgentInput = z.infer<typeof updateAgentRequest>;

const toolParameter = z.object({
  type: z.enum(TOOL_PARAMETER_TYPES, { error: agentMessages.parameterTypeInvalid }),
  description: z
    .string({ error: agentMessages.parameterDescriptionRequired })
    .check(z.trim(), z.minLength(1, agentMessages.parameterDescriptionRequired), z.maxLength(AGENT_LIMITS.parameterDescription)),
});

/** POST /api/agents/{id}/tools and PUT /api/agents/{id}/tools/{toolId}. headerValue '***' on update keeps the stored value. */
export const toolRequest = z
  .object({
    name: z.string({ error: agentMessages.toolNameRequired }).check(
      z.trim(),
      z.minLength(1, agentMessages.toolNameRequired),
      z.maxLength(AGENT_LIMITS.toolName, agentMessages.toolNameTooLong),
      z.regex(/^[a-z][a-z0-9_]*$/, agentMessages.toolNameFormat),
      z.refine((v) => !(BUILT_IN_TOOL_NAMES as readonly string[]).includes(v), agentMessages.toolNameReserved),
    ),
    description: requiredText(AGENT_LIMITS.toolDescription, agentMessages.toolDescriptionRequired, agentMessages.toolDescriptionTooLong),
    type: z._default(z.literal('http_request', { error: agentMessages.toolTypeInvalid }), 'http_request'),
    endpoint: z.string({ error: agentMessages.endpointRequired }).check(
      z.trim(),
      z.minLength(1, agentMessages.endpointRequired),
      z.maxLength(AGENT_LIMITS.endpoint, agentMessages.endpointInvalid),
      z.refine(isHttpUrl, agentMessages.endpointInvalid),
    ),
    method: z._default(z.enum(TOOL_METHODS, { error: agentMessages.methodInvalid }), 'GET'),
    headerKey: z._default(z.string().check(z.trim(), z.maxLength(AGENT_LIMITS.headerKey), z.regex(/^[A-Za-z0-9-]*$/, agentMessages.headerKeyInvalid)), ''),
    // HTTP header values are bytes: anything outside printable ASCII would make the call itself fail.
    headerValue: z._default(
      z.string().check(z.maxLength(AGENT_LIMITS.headerValue), z.regex(/^[\t\x20-\x7e]*$/, agentMessages.headerValueInvalid)),
      '',
    ),
    properties: z._default(
      // Names are checked with a refine, not a key schema: a record's key failure surfaces as zod's
      // generic 'Invalid key in record' instead of the message.
      z.record(z.string(), toolParameter).check(
        z.refine((p) => Object.keys(p).every((name) => /^[A-Za-z][A-Za-z0-9_]*$/.test(name)), agentMessages.parameterNameInvalid),
        z.refine((p) => Object.keys(p).length <= AGENT_LIMITS.toolParameters, agentMessages.tooManyParameters),
      ),
      {},
    ),
    required: z._default(z.array(z.string()), []),
  })
  .check(
    z.refine((t) => t.required.every((r) => r in t.properties), { message: agentMessages.requiredUnknown, path: ['required'] }),
    z.refine((t) => t.headerValue === '' || t.headerKey !== '', { message: agentMessages.headerValueWithoutKey, path: ['headerValue'] }),
  );
export type ToolInput = z.infer<typeof toolRequest>;

/** POST /api/agents/{id}/files/uploads: ask for presigned form uploads (the browser POSTs straight to S3 with progress). */
export const fileUploadRequest = z.object({
  files: z
    .array(
      z.object({
        name: z.string().check(z.trim(), z.minLength(1), z.maxLength(255)),
        size: z.number().check(z.int(), z.gte(0)),
        type: z._default(z.string(), ''),
      }),
      { error: agentMessages.filesRequired },
    )
    .check(z.minLength(1, agentMessages.filesRequired), z.maxLength(AGENT_LIMITS.filesPerRequest, agentMessages.tooManyFiles)),
});
export type FileUploadInput = z.infer<typeof fileUploadRequest>;

/**
 * data of POST /api/agents/{id}/files/uploads: POST a multipart/form-data form to `url` with every
 * one of `fields` first and the file last as `file` (S3 POST Object; storage refuses another size
 * range, key or Content-Type), then POST .../files/{id}/complete.
 */
export interface FileUploadTicket {
  file: AgentFile;
  url: string;
  fields: Record<string, string>;
  expiresAt: string;
}

/** SPEC §5 URLs: one per line (a text, or already a list), trimmed, empty lines dropped; each must be http(s). */
export function splitUrlLines(input: string | readonly string[]): string[] {
  const lines = typeof input === 'string' ? input.split(/\r?\n/) : input;
  return lines.map((l) => l.trim()).filter((l) => l !== '');
}

export const addUrlsRequest = z.object({
  urls: z.pipe(
    z.union([z.string(), z.array(z.string())], { error: agentMessages.urlsRequired }),
    z.transform((v) => splitUrlLines(v)),
  ).check(
    z.minLength(1, agentMessages.urlsRequired),
    z.maxLength(AGENT_LIMITS.urlsPerRequest, agentMessages.tooManyUrls),
    z.superRefine((urls, ctx) => {
      const bad = urls.find((u) => u.length > AGENT_LIMITS.urlLength || !isHttpUrl(u));
      if (bad !== undefined) ctx.issues.push({ code: 'custom', message: agentMessages.urlInvalid(bad), input: bad });
    }),
  ),
});

/** PUT /api/agents/{id}/urls/{urlId}: re-scrape (beyond the spec's "remove and re-add"), optionally with a corrected link. */
export const updateUrlRequest = z.object({
  link: z.optional(
    z.string().check(z.trim(), z.refine((u) => u.length <= AGENT_LIMITS.urlLength && isHttpUrl(u), { message: 'URL must be an http(s) URL' })),
  ),
});

export const chatRequest = z.object({
  message: z.string({ error: agentMessages.messageRequired }).check(
    z.trim(),
    z.minLength(1, agentMessages.messageRequired),
    z.maxLength(AGENT_LIMITS.chatMessage, agentMessages.messageTooLong),
  ),
  /** The history before `message`, oldest first; only the last AGENT_LIMITS.chatHistory are used. */
  messages: z._default(
    z.array(
      z.object({
        role: z.enum(['user', 'assistant']),
        content: z.string().check(z.maxLength(AGENT_LIMITS.chatMessage * 4)),
      }),
    ),
    [],
  ),
});
export type ChatInput = z.infer<typeof chatRequest>;

const entryQuestion = requiredText(AGENT_LIMITS.entryQuestion, agentMessages.entryQuestionRequired, agentMessages.entryQuestionTooLong);
const entryAnswer = requiredText(AGENT_LIMITS.entryAnswer, agentMessages.entryAnswerRequired, agentMessages.entryAnswerTooLong);

/** POST /api/agents/{id}/entries and PUT /api/agents/{id}/entries/{entryId}. */
export const knowledgeEntryRequest = z.object({ question: entryQuestion, answer: entryAnswer });
export type KnowledgeEntryInput = z.infer<typeof knowledgeEntryRequest>;

const unansweredIds = z
  .array(z.string().check(z.minLength(1), z.maxLength(100)), { error: agentMessages.unansweredIdsRequired })
  .check(z.minLength(1, agentMessages.unansweredIdsRequired), z.maxLength(AGENT_LIMITS.unansweredKept, agentMessages.unansweredIdsRequired));

/** POST /api/agents/{id}/unanswered/answer: the owner answers a group; the answer becomes a knowledge entry and the questions leave the list. */
export const answerUnansweredRequest = z.object({ ids: unansweredIds, question: entryQuestion, answer: entryAnswer });
export type AnswerUnansweredInput = z.infer<typeof answerUnansweredRequest>;

/** POST /api/agents/{id}/unanswered/dismiss: the questions leave the list without an answer. */
export const dismissUnansweredRequest = z.object({ ids: unansweredIds });

// ---------------------------------------------------------------------------------------------
// Chat replies: what the agent said and what it used (for trust, beyond the spec)

export interface ChatToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** What went back to the model: the response text (capped), or the error text. */
  result: string;
  ok: boolean;
  /** HTTP status of a custom tool's response, when there was one. */
  status?: number;
  durationMs: number;
}

export interface ChatSource {
  /** File name, URL, or an entry's question. */
  name: string;
  kind: 'file' | 'url' | 'entry';
  sourceId: string;
  /** Absolute relevance 0..1 (RetrievedChunk.relevance), comparable across messages. */
  score: number;
  /** The passage of the chunk that matches the question best (whole sentences / table rows, ≤ sourceExcerptChars). */
  excerpt: string;
  /** [start, end) character ranges of `excerpt` holding the question's terms (accent- and case-insensitive). */
  highlights: [number, number][];
  /** 1-based page of a PDF. */
  page?: number;
  /** The heading path above the passage, joined with ' › '. */
  section?: string;
}

export interface ChatReply {
  reply: string;
  agent: { _id: string; name: string };
  timestamp: string;
  toolCalls: ChatToolCall[];
  sources: ChatSource[];
  /** Set when the agent handed the conversation to a human. */
  escalation: { reason: string } | null;
  /** Issue 31: what the WhatsApp tools would send after the reply (a file, the business location), in order. */
  outbound?: ChatOutbound[];
  /** Issue 31: the options offer_choices would show under the reply (buttons or a list). */
  choices?: MessageInteractive;
}

/** A file or the business location the agent would send on WhatsApp (the Test Agent chat shows it). */
export type ChatOutbound =
  | { type: 'file'; fileId: string; fileName: string; mimeType: string; caption?: string }
  | { type: 'location'; location: BusinessLocation };

/** SPEC §3 Chat message (the Test Agent tab's history). */
export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
  timestamp: string;
  agent?: string;
  /** Assistant messages: what the agent used. */
  details?: Omit<ChatReply, 'reply' | 'agent' | 'timestamp'>;
}
