/**
 * Contacts CSV job files in the uploads bucket (issue 19), through presigned URLs only (see
 * s3-presigner.ts: no S3 client in the bundles): the browser's form upload, reading the file
 * (a Range for the preview), the error report and export written, and their download links.
 */
import type { ContactFiles, UploadForm } from '../domain/contacts/job-ports.js';
import { attachmentDisposition, DOWNLOAD_URL_SECONDS, UPLOAD_URL_SECONDS } from './s3-agent-files.js';
import type { S3Presigner } from './s3-presigner.js';
import { s3Failure } from './s3-failure.js';

export class S3ContactFiles implements ContactFiles {
  constructor(
    private readonly presigner: S3Presigner,
    private readonly now: () => number = Date.now,
  ) {}

  async uploadForm(key: string, contentType: string, maxBytes: number): Promise<UploadForm> {
    const post = await this.presigner.postPolicy(key, { contentType, minBytes: 1, maxBytes, expiresInSeconds: UPLOAD_URL_SECONDS });
    return { ...post, expiresAt: new Date(this.now() + UPLOAD_URL_SECONDS * 1000).toISOString() };
  }

  async read(key: string, maxBytes?: number): Promise<Uint8Array | null> {
    const response = await fetch(await this.presigner.urlFor(key), maxBytes ? { headers: { range: `bytes=0-${maxBytes - 1}` } } : {});
    // Without s3:ListBucket (not granted), S3 answers a missing object with 403 instead of 404.
    if (response.status === 404 || response.status === 403) return null;
    // 416: a Range on an empty object.
    if (response.status === 416) return new Uint8Array();
    if (!response.ok) throw s3Failure(`Read of a contacts file in S3 failed with HTTP ${response.status}`, response);
    const bytes = new Uint8Array(await response.arrayBuffer());
    return maxBytes && bytes.length > maxBytes ? bytes.subarray(0, maxBytes) : bytes;
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    const response = await fetch(await this.presigner.putUrl(key), { method: 'PUT', body, headers: { 'content-type': contentType } });
    // S3 answers errors as XML; keep the status only (no internals reach the client).
    if (!response.ok) throw s3Failure(`Write of a contacts file to S3 failed with HTTP ${response.status}`, response);
  }

  downloadUrl(key: string, fileName: string, contentType: string): Promise<string> {
    return this.presigner.downloadUrl(key, { contentDisposition: attachmentDisposition(fileName), contentType }, { expiresInSeconds: DOWNLOAD_URL_SECONDS });
  }
}
