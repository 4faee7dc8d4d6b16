/**
 * Knowledge index snapshots (domain/knowledge/snapshot.ts) in the uploads bucket, one object per
 * agent and language, tenant first:
 *
 *   knowledge-index/{userId}/{agentId}/{language}.bin
 *
 * One key per agent and language (the knowledgeVersion is inside the object, checked on decode)
 * rather than one per version: a newer snapshot replaces the older one by overwriting it, so
 * nothing needs listing (no s3:ListBucket) or deleting, and no lifecycle rule expires a current
 * snapshot. Deleting a source or the agent deletes both keys (deletingSnapshots).
 *
 * Plain `fetch` signed with Signature V4 (sigv4.ts), not an S3 client: every function that
 * searches knowledge loads this, the voice relay among them (400 KB bundle budget). Locally the
 * endpoint is s3rver (path-style), as for the uploads.
 */
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import type { AgentKnowledgeRef, ChunkStore, IndexSnapshotStore, KnowledgeLanguage } from '../../domain/knowledge/ports.js';
import { escapeRfc3986, signAwsRequest, type AwsCredentials } from './sigv4.js';

export const KNOWLEDGE_INDEX_PREFIX = 'knowledge-index/';
const LANGUAGES: readonly KnowledgeLanguage[] = ['es', 'en'];

/** The object key of an agent's snapshot in one language (ids are checked by the callers' routes; escaped anyway). */
export const snapshotKey = (userId: string, agentId: string, language: KnowledgeLanguage) =>
  `${KNOWLEDGE_INDEX_PREFIX}${escapeRfc3986(userId)}/${escapeRfc3986(agentId)}/${language}.bin`;

/** A snapshot of 5,000 × 1,536-d chunks is ~40 MB; past this something is wrong: treated as missing. */
export const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;

export interface S3IndexSnapshotsOptions {
  bucket: string;
  region: string;
  /** Emulator endpoint (path-style, e.g. s3rver); unset means the bucket's virtual-host URL. */
  endpoint?: string;
  /** Default: the SDK's chain (in the Lambda bundles, the environment's role credentials only). */
  credentials?: () => Promise<AwsCredentials>;
  fetch?: typeof fetch;
  /** A GET that takes longer is abandoned (the retriever then loads the chunks). */
  getTimeoutMs?: number;
  putTimeoutMs?: number;
}

export class S3IndexSnapshots implements IndexSnapshotStore {
  private credentials: (() => Promise<AwsCredentials>) | undefined;
  private readonly send: typeof fetch;

  constructor(private readonly options: S3IndexSnapshotsOptions) {
    this.credentials = options.credentials;
    this.send = options.fetch ?? globalThis.fetch;
  }

  async get(ref: AgentKnowledgeRef): Promise<Uint8Array | null> {
    const res = await this.request('GET', snapshotKey(ref.userId, ref.agentId, ref.language), undefined, this.options.getTimeoutMs ?? 10_000);
    // Without s3:ListBucket (not granted), S3 answers a missing object with 403 rather than 404.
    if (res.status === 404 || res.status === 403) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`Reading a knowledge index snapshot answered HTTP ${res.status}`);
    }
    if (Number(res.headers.get('content-length') ?? 0) > MAX_SNAPSHOT_BYTES) {
      await res.body?.cancel();
      return null;
    }
    return new Uint8Array(await res.arrayBuffer());
  }

  async put(ref: AgentKnowledgeRef, bytes: Uint8Array): Promise<void> {
    const res = await this.request('PUT', snapshotKey(ref.userId, ref.agentId, ref.language), bytes, this.options.putTimeoutMs ?? 60_000);
    await res.arrayBuffer().catch(() => undefined);
    if (!res.ok) throw new Error(`Writing a knowledge index snapshot answered HTTP ${res.status}`);
  }

  private async request(method: 'GET' | 'PUT', key: string, body: Uint8Array | undefined, timeoutMs: number): Promise<Response> {
    const { bucket, region, endpoint } = this.options;
    const url = new URL(endpoint ? `${endpoint.replace(/\/+$/, '')}/${bucket}/${key}` : `https://${bucket}.s3.${region}.amazonaws.com/${key}`);
    // Built on first use: a function whose agents have no knowledge never resolves credentials.
    this.credentials ??= defaultProvider();
    const headers = signAwsRequest({
      service: 's3',
      method,
      url,
      body: body ?? '',
      headers: body ? { 'content-type': 'application/octet-stream' } : {},
      region,
      credentials: await this.credentials(),
      date: new Date(),
    });
    return this.send(url, { method, headers, ...(body ? { body } : {}), signal: AbortSignal.timeout(timeoutMs) });
  }
}

/**
 * `chunks` whose source and agent deletes also delete the agent's snapshots (both languages), so
 * deleted text does not stay in S3 until the next search rewrites them (the bumped version already
 * keeps readers off them). `deleteObject` is the caller's own (the agents API's presigned DELETE).
 */
export function deletingSnapshots(chunks: ChunkStore, deleteObject: (key: string) => Promise<void>): ChunkStore {
  const dropSnapshots = async (userId: string, agentId: string) => {
    await Promise.all(LANGUAGES.map((language) => deleteObject(snapshotKey(userId, agentId, language))));
  };
  return {
    replaceSource: (userId, agentId, kind, sourceId, list) => chunks.replaceSource(userId, agentId, kind, sourceId, list),
    loadAgent: (userId, agentId) => chunks.loadAgent(userId, agentId),
    async deleteSource(userId, agentId, kind, sourceId) {
      await chunks.deleteSource(userId, agentId, kind, sourceId);
      await dropSnapshots(userId, agentId);
    },
    async deleteAgent(userId, agentId) {
      await chunks.deleteAgent(userId, agentId);
      await dropSnapshots(userId, agentId);
    },
  };
}
