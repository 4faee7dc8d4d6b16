/**
 * multipart/form-data parsing with busboy, for bodies that arrive whole (API Gateway hands
 * them over base64-encoded). Reads one file field, stopping at a byte limit.
 */
import busboy from 'busboy';
import { ValidationError } from '../domain/errors.js';

export interface UploadedFile {
  bytes: Buffer;
  /** True when the file was longer than `maxBytes` (bytes then holds only the first part). */
  truncated: boolean;
  filename: string;
  mimeType: string;
}

const NOT_MULTIPART = 'Request must be multipart/form-data';

/** A busboy parser for the body's Content-Type; anything but multipart/form-data is a 400 (thrown inside the caller's Promise executor: a rejection). */
function parserFor(headers: Record<string, string>, config: Omit<busboy.BusboyConfig, 'headers'>): busboy.Busboy {
  const contentType = headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(contentType)) throw new ValidationError(NOT_MULTIPART);
  try {
    return busboy({ headers: { 'content-type': contentType }, ...config });
  } catch {
    throw new ValidationError(NOT_MULTIPART);
  }
}

/** One file's bytes (up to the parser's fileSize limit, then `truncated`). */
function collect(stream: NodeJS.ReadableStream, info: busboy.FileInfo): Promise<UploadedFile> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let truncated = false;
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => (truncated = true));
    stream.on('error', fail);
    stream.on('close', () => done({ bytes: Buffer.concat(chunks), truncated, filename: info.filename ?? '', mimeType: info.mimeType ?? '' }));
  });
}

export function readMultipartFile(
  headers: Record<string, string>,
  body: Buffer,
  field: string,
  maxBytes: number,
): Promise<UploadedFile | null> {
  return new Promise((resolve, reject) => {
    const parser = parserFor(headers, { limits: { files: 1, fileSize: maxBytes, fields: 20 } });
    let found: Promise<UploadedFile> | null = null;
    parser.on('file', (name, stream, info) => {
      if (name !== field || found) {
        stream.resume();
        return;
      }
      found = collect(stream, info);
    });
    parser.on('error', () => reject(new ValidationError('Malformed multipart body')));
    parser.on('close', () => {
      if (!found) resolve(null);
      else found.then(resolve, reject);
    });
    parser.end(body);
  });
}

/**
 * Every file of one field (e.g. the agent documents' `files`), each stopped at `maxBytes`
 * (then `truncated`). File names are read as UTF-8. More than `maxFiles` files → `tooMany`.
 */
export function readMultipartFiles(
  headers: Record<string, string>,
  body: Buffer,
  field: string,
  limits: { maxBytes: number; maxFiles: number },
): Promise<{ files: UploadedFile[]; tooMany: boolean }> {
  return new Promise((resolve, reject) => {
    const parser = parserFor(headers, { defParamCharset: 'utf8', limits: { files: limits.maxFiles, fileSize: limits.maxBytes, fields: 20 } });
    const found: Promise<UploadedFile>[] = [];
    let tooMany = false;
    parser.on('filesLimit', () => (tooMany = true));
    parser.on('file', (name, stream, info) => {
      if (name !== field) {
        stream.resume();
        return;
      }
      found.push(collect(stream, info));
    });
    parser.on('error', () => reject(new ValidationError('Malformed multipart body')));
    parser.on('close', () => {
      Promise.all(found).then((files) => resolve({ files, tooMany }), reject);
    });
    parser.end(body);
  });
}
