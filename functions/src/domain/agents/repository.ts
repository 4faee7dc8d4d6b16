/**
 * Ports of the agents CRUD (the `agents` route group): the agent items and their children,
 * the uploaded documents in object storage, and the ingestion queues. The read side shared
 * with the runtime and channels is AgentReader (ports.ts).
 */
import type { FileIngestJob, UrlScrapeJob } from '../../contract/jobs.js';
import type { AgentWhatsAppTools } from '../../contract/whatsapp-media.js';
import type { AgentReader, AgentRecord, AgentWithChildren, FileRecord, ToolRecord, UrlRecord } from './ports.js';

/** Fields of an agent the API may change; whatsappTools by switch (an absent one is left as stored). */
export type AgentChanges = Partial<
  Pick<AgentRecord, 'name' | 'description' | 'objective' | 'instructions' | 'knowledgeBase' | 'priority' | 'enabled' | 'language' | 'minRelevance' | 'bookingsEnabled'>
> & { whatsappTools?: Partial<AgentWhatsAppTools> };

/** What a file's status may be set to by the API (the workers set completed/failed through KnowledgeSources). */
export interface FileStatusChange {
  status: 'pending' | 'failed';
  /** The stored object's real size, when known. */
  size?: number;
  error?: string;
  /** Back to pending: the new processing round its job is queued for. */
  generation?: string;
}

export interface AgentRepository extends AgentReader {
  /** The agent item alone (no children); null when missing or another user's. */
  getAgent(userId: string, agentId: string): Promise<AgentRecord | null>;
  createAgent(userId: string, agent: AgentRecord): Promise<void>;
  /**
   * null when the agent does not exist, or when the change would leave it enabled without
   * instructions (checked in the write itself, so a concurrent edit cannot slip past it).
   */
  updateAgent(userId: string, agentId: string, changes: AgentChanges, updatedAt: string): Promise<AgentRecord | null>;
  /** Deletes the agent item and every child item; returns what it deleted, null when missing. */
  deleteAgent(userId: string, agentId: string): Promise<AgentWithChildren | null>;
  /** ADD 1 to the agent's knowledgeVersion (after chunks were removed); no-op when the agent is gone. */
  bumpKnowledgeVersion(userId: string, agentId: string): Promise<void>;

  /** false when the agent does not exist (nothing written). */
  addTool(userId: string, tool: ToolRecord): Promise<boolean>;
  /** false when the tool does not exist (nothing written). */
  replaceTool(userId: string, tool: ToolRecord): Promise<boolean>;
  deleteTool(userId: string, agentId: string, toolId: string): Promise<boolean>;

  /** All or nothing; false when the agent does not exist (nothing written). */
  addFiles(userId: string, agentId: string, files: readonly FileRecord[]): Promise<boolean>;
  getFile(userId: string, agentId: string, fileId: string): Promise<FileRecord | null>;
  /** A file of the user by its id alone (GET /api/files/{id}). */
  findFile(userId: string, fileId: string): Promise<FileRecord | null>;
  /** Sets the status when the file is currently `from`; the updated file, or null when missing or in another state. */
  setFileStatus(userId: string, agentId: string, fileId: string, from: FileRecord['status'], change: FileStatusChange): Promise<FileRecord | null>;
  deleteFile(userId: string, agentId: string, fileId: string): Promise<FileRecord | null>;
  /** The file's "can be sent to customers" switch (issue 31); the updated file, or null when missing. */
  setFileShareable(userId: string, agentId: string, fileId: string, shareable: boolean): Promise<FileRecord | null>;

  /** All or nothing; false when the agent does not exist (nothing written). */
  addUrls(userId: string, agentId: string, urls: readonly UrlRecord[]): Promise<boolean>;
  getUrl(userId: string, agentId: string, urlId: string): Promise<UrlRecord | null>;
  /**
   * Back to pending (error cleared) in a new processing round `generation`, with `link`; only from
   * status `from` when given. null when missing (or not in `from`).
   */
  restartUrl(userId: string, agentId: string, urlId: string, restart: { link: string; at: string; generation: string; from?: UrlRecord['status'] }): Promise<UrlRecord | null>;
  /** Marks a URL still pending in `generation` failed (its job could not be queued); no-op otherwise. */
  failUrl(userId: string, agentId: string, urlId: string, generation: string | undefined, error: string, at: string): Promise<void>;
  deleteUrl(userId: string, agentId: string, urlId: string): Promise<UrlRecord | null>;
}

/** A presigned request the browser makes itself. */
export interface PresignedRequest {
  url: string;
  /** Headers the request must carry. */
  headers: Record<string, string>;
  expiresAt: string;
}

/** A form upload the browser makes itself: POST `fields`, then the file as `file` (multipart/form-data), to `url`. */
export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
  expiresAt: string;
}

/** The uploaded documents (uploads bucket). */
export interface AgentFileObjects {
  /** Where the browser POSTs a new document: exactly `key`, this Content-Type, 1..maxBytes bytes (storage refuses anything else). */
  uploadRequest(key: string, contentType: string, maxBytes: number): Promise<PresignedPost>;
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Copies an object inside the bucket (metadata included). */
  copy(sourceKey: string, key: string): Promise<void>;
  /** The stored object's size, or null when there is none. */
  head(key: string): Promise<{ size: number } | null>;
  delete(key: string): Promise<void>;
  /** A link that downloads the object as an attachment named `fileName`. */
  downloadRequest(key: string, fileName: string, contentType: string): Promise<PresignedRequest>;
}

/** The ingestion queues. */
export interface KnowledgeJobs {
  ingestFiles(jobs: readonly FileIngestJob[]): Promise<void>;
  scrapeUrls(jobs: readonly UrlScrapeJob[]): Promise<void>;
}
