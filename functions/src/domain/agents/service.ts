/**
 * The agents domain behind /api/agents (SPEC §2 Agents + Agent detail, §5, §7 Agents): agents,
 * their custom tools (header value sealed at rest), their documents (presigned uploads straight
 * to the bucket, or the spec's multipart for small files) and web URLs, which are handed to the
 * ingestion workers through the queues. Plain functions over ports.
 *
 * Deleting something that has chunks removes the item first (so a queued job finds nothing and
 * is dropped), then the chunks, then bumps the agent's knowledgeVersion (retrieval caches key
 * on it), then the stored object.
 *
 * Issue 34: every time a file or URL goes (back) to pending it gets a new processing round
 * (`generation`, carried by its job), so only that round's job can record the outcome; a failed
 * one can be reprocessed (a new round). A storage outage while a request stores or confirms a
 * document answers 503 (agentMessages.storageUnavailable) with nothing half-written, so the same
 * request can simply be repeated.
 */
import {
  AGENT_FILE_MAX_BYTES,
  agentMessages,
  invalidFilesMessage,
  type Agent,
  type AgentFile,
  type AgentTool,
  type AgentLanguage,
  type AgentUrl,
  type FileUploadInput,
  type FileUploadTicket,
  type ToolInput,
  type UpdateAgentInput,
} from '../../contract/agents.js';
import { knowledgeMessages } from '../../contract/server-texts.js';
import { newId as defaultNewId, isId } from '../../lib/ids.js';
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '../errors.js';
import { classifyProviderFailure, TransientError } from '../retry.js';
import type { ChunkStore } from '../knowledge/ports.js';
import type { SecretBox } from '../secrets/ports.js';
import { canonicalMimeType, fileObjectKey, rejectedFiles, stagingKey } from './files.js';
import { newAgentRecord, type AgentRecord, type AgentWithChildren, type FileRecord, type ToolRecord, type UrlRecord } from './ports.js';
import type { AgentFileObjects, AgentRepository, KnowledgeJobs } from './repository.js';
import { MASKED, agentView, fileView, toolView, urlView, type FileDownload } from './view.js';

export interface AgentServiceDeps {
  agents: AgentRepository;
  secrets: SecretBox;
  chunks: Pick<ChunkStore, 'deleteSource' | 'deleteAgent'>;
  objects: AgentFileObjects;
  jobs: KnowledgeJobs;
  /** The owner's profile: a new agent speaks the owner's language ('es' for a Spanish owner). */
  profiles?: { get(userId: string): Promise<{ language: AgentLanguage } | null> };
  /** The agent's unanswered questions go with it. */
  unanswered?: { deleteAgent(userId: string, agentId: string): Promise<void> };
  now?: () => Date;
  newId?: () => string;
  /** Failures that do not fail the request (an orphaned object), for the log. */
  onError?: (message: string, error: unknown) => void;
}

/** A file of the spec's multipart POST, as read from the body. */
export interface DirectUpload {
  name: string;
  mimeType: string;
  bytes: Uint8Array;
  /** The part was longer than the multipart limit (bytes holds only its start). */
  truncated: boolean;
}

/** Parallel S3 deletes when an agent with many documents goes. */
const DELETE_CONCURRENCY = 8;

async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** A storage outage (a TransientError, a refused or broken connection) as the 503 a caller may simply repeat; anything else as it is. */
function unavailableIfDown(error: unknown): unknown {
  const failure = classifyProviderFailure(error);
  return failure instanceof TransientError ? new ServiceUnavailableError(agentMessages.storageUnavailable, failure.retryAfterSeconds) : error;
}

/** Runs a request's storage work (S3, the table), an outage answered as a 503. */
async function unlessStorageIsDown<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw unavailableIfDown(error);
  }
}

/** What a tool takes from its input on create and on update (the header value is sealed apart). */
function toolFields(input: ToolInput) {
  return {
    name: input.name,
    description: input.description,
    type: input.type,
    properties: input.properties,
    required: [...new Set(input.required)],
    endpoint: input.endpoint,
    method: input.method,
    headerKey: input.headerKey,
  } satisfies Partial<ToolRecord>;
}

export function createAgentService(deps: AgentServiceDeps) {
  const { agents, secrets, chunks, objects, jobs } = deps;
  const now = () => (deps.now ? deps.now() : new Date()).toISOString();
  const newId = deps.newId ?? (() => defaultNewId());
  const onError = deps.onError ?? (() => undefined);

  const agentNotFound = () => new NotFoundError(agentMessages.notFound);

  /** The agent with its children, or 404 (ids that cannot be ours are refused without a read). */
  async function loadAgent(userId: string, agentId: string): Promise<AgentWithChildren> {
    const agent = isId(agentId) ? await agents.get(userId, agentId) : null;
    if (!agent) throw agentNotFound();
    return agent;
  }

  async function requireAgent(userId: string, agentId: string): Promise<AgentRecord> {
    const agent = isId(agentId) ? await agents.getAgent(userId, agentId) : null;
    if (!agent) throw agentNotFound();
    return agent;
  }

  /** The 404 of a missing child: 'Agent not found' when the agent itself is missing. */
  async function childNotFound(userId: string, agentId: string, message: string): Promise<never> {
    await requireAgent(userId, agentId);
    throw new NotFoundError(message);
  }

  async function removeChunks(userId: string, agentId: string, kind: 'file' | 'url', sourceId: string): Promise<void> {
    await chunks.deleteSource(userId, agentId, kind, sourceId);
    await agents.bumpKnowledgeVersion(userId, agentId);
  }

  async function deleteObject(key: string): Promise<void> {
    try {
      await objects.delete(key);
    } catch (error) {
      onError('Could not delete an agent document from the uploads bucket', error);
    }
  }

  async function sealHeader(value: string, stored: string): Promise<string> {
    if (value === MASKED) return stored;
    return value === '' ? '' : secrets.seal(value);
  }

  function assertToolNameFree(agent: AgentWithChildren, name: string, exceptId?: string): void {
    if (agent.tools.some((t) => t.name === name && t._id !== exceptId)) throw new ConflictError(agentMessages.toolNameTaken);
  }

  async function queueFiles(userId: string, agentId: string, files: readonly FileRecord[]): Promise<void> {
    try {
      await jobs.ingestFiles(files.map((f) => ({ userId, agentId, fileId: f._id, ...(f.generation ? { generation: f.generation } : {}) })));
    } catch (error) {
      await Promise.all(files.map((f) => agents.setFileStatus(userId, agentId, f._id, 'pending', { status: 'failed', error: knowledgeMessages.notStarted })));
      throw error;
    }
  }

  /** Queues the scrape of URLs pending in their rounds; when that fails they are marked failed (reprocessable). */
  async function queueUrls(userId: string, agentId: string, urls: readonly UrlRecord[], refresh: boolean): Promise<void> {
    try {
      await jobs.scrapeUrls(urls.map((u) => ({ userId, agentId, urlId: u._id, ...(refresh ? { refresh } : {}), ...(u.generation ? { generation: u.generation } : {}) })));
    } catch (error) {
      await Promise.all(urls.map((u) => agents.failUrl(userId, agentId, u._id, u.generation, knowledgeMessages.notStarted, now())));
      throw error;
    }
  }

  /** Enabling needs instructions, and an enabled agent keeps them (SPEC §4 beyond: issue 19). */
  async function updateAgent(userId: string, agentId: string, input: UpdateAgentInput): Promise<Agent> {
    if (!isId(agentId)) throw agentNotFound();
    const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as UpdateAgentInput;
    if (changes.enabled === true && changes.instructions === '') {
      await requireAgent(userId, agentId);
      throw new ValidationError(agentMessages.instructionsRequiredToEnable, 'enabled');
    }
    const updated = await agents.updateAgent(userId, agentId, changes, now());
    if (!updated) {
      // The write's condition failed: the agent is missing, or the change would break the rule.
      await requireAgent(userId, agentId);
      if (changes.enabled === true) throw new ValidationError(agentMessages.instructionsRequiredToEnable, 'enabled');
      throw new ValidationError(agentMessages.instructionsRequiredWhileEnabled, 'instructions');
    }
    return agentView(await loadAgent(userId, agentId));
  }

  /**
   * Step 2 of a browser upload: the staged object is there with the declared size (HEAD) → copied
   * to the file's own key (out of the expiring staging prefix), pending in a new round, and the
   * file-ingest job is queued.
   */
  async function confirmUpload(userId: string, agentId: string, fileId: string): Promise<AgentFile> {
    const file = isId(agentId) && isId(fileId) ? await agents.getFile(userId, agentId, fileId) : null;
    if (!file) return childNotFound(userId, agentId, agentMessages.fileNotFound);
    // Confirmed already (a repeated call): nothing more to do.
    if (file.status !== 'uploading') return fileView(file);
    const staged = stagingKey(file.s3Key);
    const stored = await objects.head(staged);
    if (!stored) throw new ValidationError(agentMessages.fileNotUploaded);
    if (stored.size > AGENT_FILE_MAX_BYTES || stored.size !== file.size) {
      // Not what was declared (storage already caps it at 50 MB): refuse it and remove what was stored.
      await agents.deleteFile(userId, agentId, fileId);
      await deleteObject(staged);
      throw new ValidationError(
        stored.size > AGENT_FILE_MAX_BYTES
          ? invalidFilesMessage([{ name: file.originalName, reason: 'too large, max 50MB' }])
          : agentMessages.fileSizeMismatch,
      );
    }
    // Copied before the item says pending: a confirmed file always has its object outside staging.
    await objects.copy(staged, file.s3Key);
    const pending = await agents.setFileStatus(userId, agentId, fileId, 'uploading', { status: 'pending', size: stored.size, generation: newId() });
    if (!pending) {
      // Confirmed by a concurrent call, or deleted meanwhile.
      const current = await agents.getFile(userId, agentId, fileId);
      if (!current) {
        await deleteObject(file.s3Key);
        throw new NotFoundError(agentMessages.fileNotFound);
      }
      return fileView(current);
    }
    // Best effort: the lifecycle rule removes it after a day anyway.
    await deleteObject(staged);
    await queueFiles(userId, agentId, [pending]);
    return fileView(pending);
  }

  return {
    // ------------------------------------------------------------------ agents

    async list(userId: string): Promise<Agent[]> {
      return (await agents.list(userId)).map(agentView);
    },

    async get(userId: string, agentId: string): Promise<Agent> {
      return agentView(await loadAgent(userId, agentId));
    },

    async create(userId: string, input: { name: string }): Promise<Agent> {
      const language = (await deps.profiles?.get(userId))?.language ?? 'en';
      const agent = newAgentRecord(newId(), input.name, now(), language === 'es' ? 'es' : 'en');
      await agents.createAgent(userId, agent);
      return agentView({ ...agent, files: [], urls: [], tools: [], entries: [] });
    },

    update: updateAgent,

    async setEnabled(userId: string, agentId: string, enabled: boolean): Promise<Agent> {
      return updateAgent(userId, agentId, { enabled });
    },

    /** The agent, its files, URLs, tools and knowledge entries, its chunks, unanswered questions and stored documents. */
    async remove(userId: string, agentId: string): Promise<void> {
      const deleted = isId(agentId) ? await agents.deleteAgent(userId, agentId) : null;
      if (!deleted) throw agentNotFound();
      await chunks.deleteAgent(userId, agentId);
      await deps.unanswered?.deleteAgent(userId, agentId);
      await eachLimited(deleted.files, DELETE_CONCURRENCY, (f) => deleteObject(f.s3Key));
    },

    // ------------------------------------------------------------------ tools

    async listTools(userId: string, agentId: string): Promise<AgentTool[]> {
      return (await loadAgent(userId, agentId)).tools.map(toolView);
    },

    async createTool(userId: string, agentId: string, input: ToolInput): Promise<AgentTool> {
      const agent = await loadAgent(userId, agentId);
      assertToolNameFree(agent, input.name);
      const at = now();
      const tool: ToolRecord = {
        _id: newId(),
        agentId,
        ...toolFields(input),
        sealedHeaderValue: await sealHeader(input.headerValue, ''),
        createdAt: at,
        updatedAt: at,
      };
      if (!(await agents.addTool(userId, tool))) throw agentNotFound();
      return toolView(tool);
    },

    async updateTool(userId: string, agentId: string, toolId: string, input: ToolInput): Promise<AgentTool> {
      const agent = await loadAgent(userId, agentId);
      const existing = agent.tools.find((t) => t._id === toolId);
      if (!existing) throw new NotFoundError(agentMessages.toolNotFound);
      assertToolNameFree(agent, input.name, toolId);
      const tool: ToolRecord = {
        ...existing,
        ...toolFields(input),
        sealedHeaderValue: input.headerKey === '' ? '' : await sealHeader(input.headerValue, existing.sealedHeaderValue),
        updatedAt: now(),
      };
      if (!(await agents.replaceTool(userId, tool))) throw new NotFoundError(agentMessages.toolNotFound);
      return toolView(tool);
    },

    async deleteTool(userId: string, agentId: string, toolId: string): Promise<void> {
      if (!isId(agentId) || !isId(toolId) || !(await agents.deleteTool(userId, agentId, toolId))) {
        await childNotFound(userId, agentId, agentMessages.toolNotFound);
      }
    },

    // ------------------------------------------------------------------ files

    async listFiles(userId: string, agentId: string): Promise<AgentFile[]> {
      return (await loadAgent(userId, agentId)).files.map(fileView);
    },

    /**
     * Step 1 of a browser upload: file items in 'uploading' and one presigned form POST each, to the
     * file's staging key, at most 50 MB (storage itself refuses more). Nothing is written when a file is refused.
     */
    async requestUploads(userId: string, agentId: string, input: FileUploadInput): Promise<FileUploadTicket[]> {
      await requireAgent(userId, agentId);
      const rejected = rejectedFiles(input.files);
      if (rejected.length > 0) throw new ValidationError(invalidFilesMessage(rejected), 'files');
      const at = now();
      const files: FileRecord[] = input.files.map((f) => {
        const id = newId();
        return {
          id,
          _id: id,
          agentId,
          shareable: false,
          originalName: f.name,
          mimeType: canonicalMimeType(f.name, f.type),
          size: f.size,
          uploadedAt: at,
          status: 'uploading',
          s3Key: fileObjectKey(userId, agentId, id, f.name),
        };
      });
      if (!(await agents.addFiles(userId, agentId, files))) throw agentNotFound();
      return Promise.all(
        files.map(async (file) => ({
          file: fileView(file),
          ...(await objects.uploadRequest(stagingKey(file.s3Key), file.mimeType, AGENT_FILE_MAX_BYTES)),
        })),
      );
    },

    /** Step 2 (confirmUpload): the staged object checked and copied, the file pending, its job queued. */
    async completeUpload(userId: string, agentId: string, fileId: string): Promise<AgentFile> {
      // Repeatable: a confirm cut short by an outage (503) leaves the file uploading and its staged object in place.
      return unlessStorageIsDown(() => confirmUpload(userId, agentId, fileId));
    },

    /** The spec's multipart POST: small files stored by the function itself, then queued. */
    async uploadDirect(userId: string, agentId: string, uploads: readonly DirectUpload[]): Promise<AgentFile[]> {
      await requireAgent(userId, agentId);
      if (uploads.length === 0) throw new ValidationError(agentMessages.filesRequired, 'files');
      const rejected = rejectedFiles(uploads.map((u) => ({ name: u.name, size: u.bytes.length, type: u.mimeType })));
      if (rejected.length > 0) throw new ValidationError(invalidFilesMessage(rejected), 'files');
      if (uploads.some((u) => u.truncated)) throw new ValidationError(agentMessages.fileTooLargeForDirectUpload, 'files');
      const at = now();
      const files: FileRecord[] = uploads.map((u) => {
        const id = newId();
        return {
          id,
          _id: id,
          agentId,
          shareable: false,
          originalName: u.name,
          mimeType: canonicalMimeType(u.name, u.mimeType),
          size: u.bytes.length,
          uploadedAt: at,
          status: 'pending',
          s3Key: fileObjectKey(userId, agentId, id, u.name),
          generation: newId(),
        };
      });
      // Objects first: a file item is never pending without its object. An outage stores nothing (503).
      const stored = await Promise.allSettled(files.map((f, i) => objects.put(f.s3Key, uploads[i]!.bytes, f.mimeType)));
      const failed = stored.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) {
        await Promise.all(files.filter((_, i) => stored[i]!.status === 'fulfilled').map((f) => deleteObject(f.s3Key)));
        throw unavailableIfDown(failed.reason);
      }
      if (!(await unlessStorageIsDown(() => agents.addFiles(userId, agentId, files)))) {
        await Promise.all(files.map((f) => deleteObject(f.s3Key)));
        throw agentNotFound();
      }
      await queueFiles(userId, agentId, files);
      return files.map(fileView);
    },

    /** POST …/files/{fileId}/reprocess (issue 34): a failed file back to pending in a new round, its job queued; 409 unless it failed. */
    async reprocessFile(userId: string, agentId: string, fileId: string): Promise<AgentFile> {
      const file = isId(agentId) && isId(fileId) ? await agents.getFile(userId, agentId, fileId) : null;
      if (!file) return childNotFound(userId, agentId, agentMessages.fileNotFound);
      if (file.status !== 'failed') throw new ConflictError(agentMessages.fileNotFailed);
      const pending = await agents.setFileStatus(userId, agentId, fileId, 'failed', { status: 'pending', generation: newId() });
      if (!pending) {
        // Reprocessed by a concurrent call, or deleted meanwhile.
        if (!(await agents.getFile(userId, agentId, fileId))) throw new NotFoundError(agentMessages.fileNotFound);
        throw new ConflictError(agentMessages.fileNotFailed);
      }
      await queueFiles(userId, agentId, [pending]);
      return fileView(pending);
    },

    async deleteFile(userId: string, agentId: string, fileId: string): Promise<void> {
      const deleted = isId(agentId) && isId(fileId) ? await agents.deleteFile(userId, agentId, fileId) : null;
      if (!deleted) return childNotFound(userId, agentId, agentMessages.fileNotFound);
      await removeChunks(userId, agentId, 'file', fileId);
      await deleteObject(deleted.s3Key);
    },

    /**
     * PATCH …/files/{fileId} (issue 31): "can be sent to customers". Any file of the agent may be
     * marked; the send_file tool offers only the marked ones that were read (completed).
     */
    async setFileShareable(userId: string, agentId: string, fileId: string, shareable: boolean): Promise<AgentFile> {
      const file = isId(agentId) && isId(fileId) ? await agents.setFileShareable(userId, agentId, fileId, shareable) : null;
      if (!file) return childNotFound(userId, agentId, agentMessages.fileNotFound);
      return fileView(file);
    },

    /** GET /api/files/{id}: a short-lived attachment link. */
    async download(userId: string, fileId: string): Promise<FileDownload> {
      const file = isId(fileId) ? await agents.findFile(userId, fileId) : null;
      if (!file || file.status === 'uploading') throw new NotFoundError(agentMessages.fileNotFound);
      const link = await objects.downloadRequest(file.s3Key, file.originalName, file.mimeType);
      return { url: link.url, originalName: file.originalName, mimeType: file.mimeType, size: file.size, expiresAt: link.expiresAt };
    },

    // ------------------------------------------------------------------ URLs

    async listUrls(userId: string, agentId: string): Promise<AgentUrl[]> {
      return (await loadAgent(userId, agentId)).urls.map(urlView);
    },

    /** New links only (those already on the agent, or repeated, are skipped), each queued for scraping. */
    async addUrls(userId: string, agentId: string, links: readonly string[]): Promise<AgentUrl[]> {
      const agent = await loadAgent(userId, agentId);
      const known = new Set(agent.urls.map((u) => u.link));
      const fresh = links.filter((link) => !known.has(link) && (known.add(link), true));
      if (fresh.length === 0) return [];
      const at = now();
      const urls: UrlRecord[] = fresh.map((link) => ({ _id: newId(), agentId, link, status: 'pending', lastUpdateAt: at, generation: newId() }));
      if (!(await agents.addUrls(userId, agentId, urls))) throw agentNotFound();
      await queueUrls(userId, agentId, urls, false);
      return urls.map(urlView);
    },

    /** Re-scrape (optionally from a corrected link) in a new round, whatever its status; chunks are replaced only when the text changed. */
    async refreshUrl(userId: string, agentId: string, urlId: string, input: { link?: string }): Promise<AgentUrl> {
      const existing = isId(agentId) && isId(urlId) ? await agents.getUrl(userId, agentId, urlId) : null;
      if (!existing) return childNotFound(userId, agentId, agentMessages.urlNotFound);
      const restarted = await agents.restartUrl(userId, agentId, urlId, { link: input.link ?? existing.link, at: now(), generation: newId() });
      if (!restarted) throw new NotFoundError(agentMessages.urlNotFound);
      await queueUrls(userId, agentId, [restarted], true);
      return urlView(restarted);
    },

    /**
     * POST …/urls/{urlId}/reprocess (issue 34): the refresh of a URL that failed, from its own link
     * (409 unless it failed, so a page being read or read well is not re-read by a stray click).
     */
    async reprocessUrl(userId: string, agentId: string, urlId: string): Promise<AgentUrl> {
      const existing = isId(agentId) && isId(urlId) ? await agents.getUrl(userId, agentId, urlId) : null;
      if (!existing) return childNotFound(userId, agentId, agentMessages.urlNotFound);
      if (existing.status !== 'failed') throw new ConflictError(agentMessages.urlNotFailed);
      const restarted = await agents.restartUrl(userId, agentId, urlId, { link: existing.link, at: now(), generation: newId(), from: 'failed' });
      if (!restarted) {
        // Reprocessed or refreshed by a concurrent call, or deleted meanwhile.
        if (!(await agents.getUrl(userId, agentId, urlId))) throw new NotFoundError(agentMessages.urlNotFound);
        throw new ConflictError(agentMessages.urlNotFailed);
      }
      await queueUrls(userId, agentId, [restarted], true);
      return urlView(restarted);
    },

    async deleteUrl(userId: string, agentId: string, urlId: string): Promise<void> {
      const deleted = isId(agentId) && isId(urlId) ? await agents.deleteUrl(userId, agentId, urlId) : null;
      if (!deleted) return childNotFound(userId, agentId, agentMessages.urlNotFound);
      await removeChunks(userId, agentId, 'url', urlId);
    },
  };
}

export type AgentService = ReturnType<typeof createAgentService>;
