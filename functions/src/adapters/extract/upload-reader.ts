/**
 * Reads an uploaded document from the uploads bucket through a presigned GET (the same signer the
 * API uses, so the worker needs no S3 client), refusing more than `maxBytes` whether or not the
 * object announces its length. A missing object is a problem for the user (upload it again);
 * any other failed GET is transient (the queue retries).
 */
import { KnowledgeSourceError, knowledgeMessages } from '../../domain/knowledge/errors.js';
import { s3Failure } from '../s3-failure.js';

export interface ObjectUrlSigner {
  urlFor(key: string): Promise<string>;
}

export class PresignedObjectReader {
  constructor(
    private readonly signer: ObjectUrlSigner,
    private readonly maxBytes: number,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  async read(key: string): Promise<Uint8Array> {
    const response = await this.fetchFn(await this.signer.urlFor(key));
    if (response.status === 404) {
      await response.body?.cancel();
      throw new KnowledgeSourceError(knowledgeMessages.fileMissing);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw s3Failure(`Reading the uploaded object answered HTTP ${response.status}`, response);
    }
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > this.maxBytes) {
      await response.body?.cancel();
      throw new KnowledgeSourceError(knowledgeMessages.fileTooLarge);
    }
    if (!response.body) return new Uint8Array(0);
    const parts: Uint8Array[] = [];
    let total = 0;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > this.maxBytes) {
        await reader.cancel();
        throw new KnowledgeSourceError(knowledgeMessages.fileTooLarge);
      }
      parts.push(value);
    }
    const out = new Uint8Array(total);
    let offset = 0;
    for (const p of parts) {
      out.set(p, offset);
      offset += p.byteLength;
    }
    return out;
  }
}
