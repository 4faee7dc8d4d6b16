/**
 * Ingestion of one knowledge source (an uploaded file or a web page), pure over ports:
 *
 *   source record → bytes → structured document (headings, paragraphs, tables; pages) → chunks
 *   (each with its page and heading path) → embeddings (the user's own OpenAI key) → ChunkStore
 *   → source completed (chunkCount, contentHash, title) and the agent's knowledgeVersion bumped.
 *
 * Outcomes (issue 34: every failure classified, every outcome guarded):
 * - The source (or its agent) no longer exists: the job is dropped (nothing written).
 * - The source is not pending in the job's generation (already completed or failed by an earlier
 *   delivery of the same job, or sent back to pending since by a refresh or reprocess, whose own
 *   job does the work): the job is stale and changes nothing.
 * - A lasting problem (KnowledgeSourceError: content not of its type (sniffed), not a PDF, a zip
 *   bomb, no text, HTTP 404, blocked address, unsupported type, too long; the user's OpenAI key
 *   refused (401)): the source is marked failed at once with the reason written for the user, and
 *   the job succeeds (no retry). Chunks of an earlier successful ingestion are kept (a refresh
 *   that fails does not wipe the knowledge). A page that answered 408/429/5xx, timed out or
 *   dropped the connection is retried on the schedule first, then fails with its reason.
 * - No active ChatGPT integration, or embeddings failing for another reason retrying cannot fix
 *   (unknown model, refused request): chunks are stored WITHOUT vectors (keyword retrieval still
 *   finds them), the source completes and a warning is logged.
 * - Transient failures (S3 and DynamoDB answering 5xx or throttling, a refused or broken
 *   connection, embeddings 429/5xx/timeouts) and anything unexpected throw, so the queue retries
 *   on its schedule (domain/retry.ts). On the last try a transient embedding error stores the
 *   chunks without vectors instead, and any other failure marks the source failed with a reason
 *   that says it can be reprocessed (storage unavailable, or unexpected) before rethrowing, so a
 *   source never stays 'pending' forever; a try that dies before any catch runs (a crash, a
 *   timeout, out of memory) is settled by the queue's give-up delivery (giveUpFile, giveUpUrl:
 *   failed with knowledgeMessages.gaveUp), after which the message dead-letters.
 * - Every outcome is one conditional write (KnowledgeSources.settle): only a source pending in the
 *   job's generation becomes completed or failed, so a completed document never flips to failed.
 *   The index snapshot written after a completion is a cache: its failure is logged, never the
 *   source's.
 * - A URL refresh whose extracted text (the document rendered as chunks show it) has the same sha256 as last time only completes the
 *   source (lastUpdateAt, title): chunks and knowledgeVersion stay.
 */
import { createHash } from 'node:crypto';
import { agentFileKind, AGENT_FILE_MAX_BYTES, type AgentFileKind } from '../../contract/agents.js';
import type { FileIngestJob, UrlScrapeJob } from '../../contract/jobs.js';
import { type AiConnector, EMBEDDING_DIMENSIONS, ModelError } from '../ai/ports.js';
import { chunkDocument, renderDocument, type ChunkingOptions } from './chunking.js';
import { classifyProviderFailure, TransientError } from '../retry.js';
import { KnowledgeSourceError, knowledgeMessages } from './errors.js';
import type {
  ChunkStore,
  IndexSnapshotStore,
  KnowledgeChunk,
  KnowledgeSourceKind,
  KnowledgeSourceRecord,
  KnowledgeSources,
  KnowledgeSourceUpdate,
  KnowledgeState,
  SettleResult,
  StructuredDocument,
} from './ports.js';
import { writeIndexSnapshot } from './snapshot.js';
import { contentMismatch } from './sniff.js';
import { normaliseWhitespace } from './text.js';

export interface IngestLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface KnowledgeIngestDeps {
  sources: KnowledgeSources;
  chunks: ChunkStore;
  ai: AiConnector;
  /** Uploaded documents (only the file-ingest worker wires them). */
  files?: {
    /** The uploaded document's bytes (KnowledgeSourceError when missing or over 50 MB). */
    read(s3Key: string): Promise<Uint8Array>;
    /** Bytes → structured document by kind (KnowledgeSourceError when the bytes are not that kind of document). */
    extract(kind: AgentFileKind, bytes: Uint8Array): Promise<StructuredDocument>;
  };
  /** Web pages (only the url-scrape worker wires them). */
  pages?: {
    /** The page's readable structure and title (KnowledgeSourceError when the page cannot be used). */
    fetch(link: string): Promise<StructuredDocument>;
  };
  log: IngestLog;
  chunking?: Partial<ChunkingOptions>;
  /** Where the agent's index snapshot is written once its new chunks are in (a cold search then loads it in one GET). */
  snapshots?: IndexSnapshotStore;
}

export interface Delivery {
  /** This is the queue's last delivery of the message (no retry after it). */
  finalAttempt: boolean;
}

/** 'stale': the source is not pending in the job's generation (done already, or reprocessed since): nothing written. */
export type IngestOutcome = 'dropped' | 'stale' | 'failed' | 'completed' | 'unchanged';

/** Shown when something unexpected failed on the last try. */
export const UNEXPECTED_FAILURE = knowledgeMessages.unexpected;

const TRANSIENT_MODEL_ERRORS = new Set(['rate_limit', 'unavailable', 'timeout']);

export const contentHashOf = (text: string) => createHash('sha256').update(normaliseWhitespace(text)).digest('hex');

export function createKnowledgeIngestion(deps: KnowledgeIngestDeps) {
  const { sources, chunks: store, log } = deps;

  /** Embeddings of `texts`, or null when they cannot be had (chunks are then stored without vectors). */
  async function embed(userId: string, texts: string[], delivery: Delivery, ref: Record<string, unknown>): Promise<Float32Array[] | null> {
    const connection = await deps.ai.forUser(userId);
    if (!connection) {
      log.warn('Knowledge stored without embeddings: no active ChatGPT integration', ref);
      return null;
    }
    try {
      const vectors = await connection.embedder.embed(texts);
      if (vectors.length !== texts.length || vectors.some((v) => v.length !== EMBEDDING_DIMENSIONS)) {
        log.warn('Knowledge stored without embeddings: the embedder answered vectors of the wrong count or size', { ...ref, got: vectors.length });
        return null;
      }
      return vectors;
    } catch (error) {
      // The owner's key was refused: retrying cannot help until they fix it, and knowledge without
      // vectors would hide the problem. Failed at once, with the reason; they reprocess once fixed.
      if (error instanceof ModelError && error.kind === 'auth') throw new KnowledgeSourceError(knowledgeMessages.aiKeyRefused);
      const transient = !(error instanceof ModelError) || TRANSIENT_MODEL_ERRORS.has(error.kind);
      if (transient && !delivery.finalAttempt) throw error;
      log.warn('Knowledge stored without embeddings: the embedding call failed', {
        ...ref,
        kind: error instanceof ModelError ? error.kind : 'unexpected',
        finalAttempt: delivery.finalAttempt,
      });
      return null;
    }
  }

  /**
   * The agent's index snapshot for the version the update just set: loaded after that bump, so it
   * holds at least every change up to it. Best-effort: without it the next search loads the chunks
   * (and writes it), so a failure is logged, never retried.
   */
  async function writeSnapshot(userId: string, agentId: string, state: KnowledgeState, ref: Record<string, unknown>): Promise<void> {
    if (!deps.snapshots) return;
    try {
      const written = await writeIndexSnapshot({ chunks: store, snapshots: deps.snapshots, dims: EMBEDDING_DIMENSIONS }, { userId, agentId, ...state });
      log.info('Knowledge index snapshot written', { ...ref, ...state, ...written });
    } catch (error) {
      log.warn('Knowledge index snapshot not written', { ...ref, ...state, error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Shared tail of both jobs: document → chunks → vectors → store → completed. */
  async function ingest(
    userId: string,
    agentId: string,
    record: KnowledgeSourceRecord,
    produce: () => Promise<StructuredDocument>,
    options: { refresh: boolean },
    delivery: Delivery,
  ): Promise<IngestOutcome> {
    const { kind, sourceId, generation } = record;
    const ref = { userId, agentId, kind, sourceId };
    const settle = (update: KnowledgeSourceUpdate, chunksChanged: boolean) => sources.settle(userId, agentId, kind, sourceId, generation, update, chunksChanged);
    const fail = async (reason: string): Promise<IngestOutcome> => {
      const { settled } = await settle({ status: 'failed', error: reason }, false);
      log.info(settled ? 'Knowledge source failed' : 'Knowledge source failure not recorded: no longer pending in this round', { ...ref, reason });
      return settled ? 'failed' : 'stale';
    };
    let completed: SettleResult;
    let chunkCount: number;
    let withVectors: boolean;
    try {
      const document = await produce();
      const { title } = document;
      const pieces = chunkDocument(document, deps.chunking);
      if (pieces.length === 0) return await fail(kind === 'file' ? knowledgeMessages.noTextInFile : knowledgeMessages.noTextOnPage);
      const contentHash = contentHashOf(renderDocument(document, deps.chunking));
      const titled = title ? { title } : {};
      if (options.refresh && record.contentHash === contentHash) {
        const { settled } = await settle({ status: 'completed', ...titled }, false);
        log.info(settled ? 'Knowledge source unchanged' : 'Knowledge source unchanged, no longer pending in this round', ref);
        return settled ? 'unchanged' : 'stale';
      }
      const vectors = await embed(userId, pieces.map((p) => p.text), delivery, ref);
      const chunkRecords: KnowledgeChunk[] = pieces.map((piece, index) => ({
        agentId,
        sourceKind: kind,
        sourceId,
        sourceName: record.name,
        index,
        text: piece.text,
        page: piece.page,
        headings: piece.headings,
        vector: vectors?.[index] ?? null,
      }));
      await store.replaceSource(userId, agentId, kind, sourceId, chunkRecords);
      completed = await settle({ status: 'completed', chunkCount: pieces.length, contentHash, ...titled }, true);
      if (!completed.settled) {
        // Deleted while we worked: the delete removed the chunks it saw, remove the ones we just wrote.
        // (Still there: a newer round owns it now, and its own job writes its chunks.)
        if (!(await sources.get(userId, agentId, kind, sourceId))) {
          await store.deleteSource(userId, agentId, kind, sourceId);
          return 'dropped';
        }
        log.info('Knowledge source ingested, but no longer pending in this round: outcome not recorded', ref);
        return 'stale';
      }
      chunkCount = pieces.length;
      withVectors = vectors !== null;
    } catch (error) {
      if (error instanceof KnowledgeSourceError) {
        // A site that was down or slow gets the schedule's tries before its reason is final.
        if (error.passing && !delivery.finalAttempt) throw error;
        return fail(error.message);
      }
      if (delivery.finalAttempt) {
        // The schedule is spent: say whether it was an outage (worth reprocessing later) or not.
        const reason = classifyProviderFailure(error) instanceof TransientError ? knowledgeMessages.storageUnavailable : UNEXPECTED_FAILURE;
        await settle({ status: 'failed', error: reason }, false).catch(() => undefined);
      }
      throw error;
    }
    // Completed. What follows is a cache: it never changes the source's outcome.
    if (completed.state) await writeSnapshot(userId, agentId, completed.state, ref);
    log.info('Knowledge source ingested', { ...ref, chunks: chunkCount, vectors: withVectors });
    return 'completed';
  }

  /**
   * The source a job is for, when the job still has work to do: null when it no longer exists
   * (dropped) or is not pending in the job's generation ('stale': an earlier delivery of the same
   * job finished it, or a refresh or reprocess started a newer round).
   */
  async function load(
    userId: string,
    agentId: string,
    kind: KnowledgeSourceKind,
    sourceId: string,
    generation: string | undefined,
  ): Promise<KnowledgeSourceRecord | 'dropped' | 'stale'> {
    const record = await sources.get(userId, agentId, kind, sourceId);
    const ref = { userId, agentId, kind, sourceId };
    if (!record) {
      log.info('Knowledge job dropped: the source no longer exists', ref);
      return 'dropped';
    }
    if (record.status !== 'pending' || record.generation !== generation) {
      log.info('Knowledge job stale: the source is not pending in its round', { ...ref, status: record.status, generation, current: record.generation });
      return 'stale';
    }
    return record;
  }

  /**
   * The queue's give-up delivery (workers/sqs-worker.ts giveUp): every try of the job failed, some
   * perhaps by dying before any catch ran (a crash, a timeout, out of memory). A source still
   * pending ends failed, so none waits for ever; one a try did finish keeps its outcome.
   */
  async function giveUp(userId: string, agentId: string, kind: KnowledgeSourceKind, sourceId: string, generation: string | undefined): Promise<IngestOutcome> {
    const record = await load(userId, agentId, kind, sourceId, generation);
    if (typeof record === 'string') return record;
    log.warn('Knowledge source given up: every try failed', { userId, agentId, kind, sourceId });
    const { settled } = await sources.settle(userId, agentId, kind, sourceId, generation, { status: 'failed', error: knowledgeMessages.gaveUp }, false);
    return settled ? 'failed' : 'stale';
  }

  return {
    giveUpFile: (job: FileIngestJob) => giveUp(job.userId, job.agentId, 'file', job.fileId, job.generation),
    giveUpUrl: (job: UrlScrapeJob) => giveUp(job.userId, job.agentId, 'url', job.urlId, job.generation),

    async ingestFile(job: FileIngestJob, delivery: Delivery): Promise<IngestOutcome> {
      const files = deps.files;
      if (!files) throw new Error('createKnowledgeIngestion: files are not wired');
      const record = await load(job.userId, job.agentId, 'file', job.fileId, job.generation);
      if (typeof record === 'string') return record;
      return ingest(
        job.userId,
        job.agentId,
        record,
        async () => {
          const kind = agentFileKind(record.name, record.mimeType ?? '');
          if (!kind) throw new KnowledgeSourceError(knowledgeMessages.unsupportedFile);
          if ((record.size ?? 0) > AGENT_FILE_MAX_BYTES) throw new KnowledgeSourceError(knowledgeMessages.fileTooLarge);
          if (!record.s3Key) throw new KnowledgeSourceError(knowledgeMessages.fileMissing);
          const bytes = await files.read(record.s3Key);
          // The bytes must be what the name says before any parser sees them (a renamed program is refused).
          const mismatch = contentMismatch(kind, bytes);
          if (mismatch) throw new KnowledgeSourceError(mismatch);
          // A file's own title (PDF metadata...) is not the source's title: only pages set one.
          const { blocks } = await files.extract(kind, bytes);
          return { blocks };
        },
        { refresh: false },
        delivery,
      );
    },

    async scrapeUrl(job: UrlScrapeJob, delivery: Delivery): Promise<IngestOutcome> {
      const pages = deps.pages;
      if (!pages) throw new Error('createKnowledgeIngestion: pages are not wired');
      const record = await load(job.userId, job.agentId, 'url', job.urlId, job.generation);
      if (typeof record === 'string') return record;
      return ingest(job.userId, job.agentId, record, () => pages.fetch(record.link ?? record.name), { refresh: job.refresh === true }, delivery);
    },
  };
}

export type KnowledgeIngestion = ReturnType<typeof createKnowledgeIngestion>;
