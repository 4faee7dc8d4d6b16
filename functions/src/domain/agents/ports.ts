/**
 * Agents as stored (adapters/dynamo/agents.ts implements AgentRepository). The API shape is
 * contract/agents.ts `Agent`; the records differ where the API must not show something
 * (a tool's sealed header value, S3 keys, knowledgeVersion).
 */
import type { Agent, AgentFile, AgentLanguage, AgentTool, AgentUrl, KnowledgeEntry } from '../../contract/agents.js';
// agent-limits.js, not agents.js: the call loop's bundle needs the value, not the request schemas.
import { DEFAULT_MIN_RELEVANCE } from '../../contract/agent-limits.js';
import { WHATSAPP_TOOLS_OFF } from '../../contract/whatsapp-media.js';

/** The API's tool with its header value sealed instead of masked. */
export interface ToolRecord extends Omit<AgentTool, 'headerValue'> {
  agentId: string;
  /** SecretBox-sealed header value, or '' when none. */
  sealedHeaderValue: string;
}

export interface FileRecord extends AgentFile {
  agentId: string;
  s3Key: string;
  contentHash?: string;
  /** The processing round it is (or was last) pending in: contract/jobs.ts `generation`. */
  generation?: string;
  /** Issue 31: Meta's media id of its last upload for the agent's send_file (kept to send it again without uploading; never shown). */
  metaMedia?: FileMetaMedia;
}

/** A file as uploaded to Meta's media endpoint from one business number (Meta keeps it 30 days). */
export interface FileMetaMedia {
  phoneId: string;
  mediaId: string;
  /** ISO time of the upload. */
  at: string;
}

export interface UrlRecord extends AgentUrl {
  agentId: string;
  contentHash?: string;
  /** The processing round it is (or was last) pending in: contract/jobs.ts `generation`. */
  generation?: string;
}

/** The API's agent without its children (stored as items of their own). */
export interface AgentRecord extends Omit<Agent, 'files' | 'urls' | 'tools' | 'entries'> {
  /** Bumped whenever the agent's chunks change (retrieval caches key on it). */
  knowledgeVersion: number;
}

/** The owner's question + answer pair as stored (its chunk is the 'entry' knowledge source of the same id). */
export interface EntryRecord extends KnowledgeEntry {
  agentId: string;
}

/**
 * An agent as created from its name alone: empty texts, priority 0, disabled (it has no instructions
 * yet, and an enabled agent always has some), knowledgeVersion 0, the owner's language.
 */
export function newAgentRecord(_id: string, name: string, at: string, language: AgentLanguage = 'en'): AgentRecord {
  return {
    _id,
    name,
    description: '',
    objective: '',
    instructions: '',
    knowledgeBase: '',
    priority: 0,
    enabled: false,
    language,
    minRelevance: DEFAULT_MIN_RELEVANCE,
    bookingsEnabled: false,
    whatsappTools: WHATSAPP_TOOLS_OFF,
    knowledgeVersion: 0,
    createdAt: at,
    updatedAt: at,
  };
}

export interface AgentWithChildren extends AgentRecord {
  files: FileRecord[];
  urls: UrlRecord[];
  tools: ToolRecord[];
  entries: EntryRecord[];
}

/** The read side the runtime and channels (chat, WhatsApp, voice) need. */
export interface AgentReader {
  /** One agent with its files, URLs and tools (one Query); null when missing or another user's. */
  get(userId: string, agentId: string): Promise<AgentWithChildren | null>;
  /** Every agent of the user with children, oldest first. */
  list(userId: string): Promise<AgentWithChildren[]>;
}

/** The agent that answers when no agent is named: highest priority among enabled ones, ties → oldest. */
export function pickAnsweringAgent<A extends Pick<AgentRecord, 'enabled' | 'priority' | 'createdAt' | '_id'>>(agents: readonly A[]): A | null {
  let best: A | null = null;
  for (const a of agents) {
    if (!a.enabled) continue;
    if (!best || a.priority > best.priority || (a.priority === best.priority && (a.createdAt < best.createdAt || (a.createdAt === best.createdAt && a._id < best._id)))) best = a;
  }
  return best;
}
