/**
 * multipart/form-data parsing with busboy, for bodies that arrive whole (API Gateway hands
 * them over base64-encoded). Reads the files of one field, each stopped at a byte limit.
 *
 * Any malformed body (truncated, wrong or missing boundary, broken part headers) is a 400 and
 * never an uncaught error: busboy reports a body that stops mid-part by destroying the open
 * file stream with an error, and a stream error nobody listens to kills the process, so every
 * file stream (kept or skipped) has an 'error' listener, and the read settles exactly once.
 */
import busboy from 'busboy';
import { httpMessages } from '../contract/account-texts.js';
import { ValidationError } from '../domain/errors.js';

export interface UploadedFile {
  bytes: Buffer;
  /** True when the file was longer than `maxBytes` (bytes then holds only the first part). */
  truncated: boolean;
  filename: string;
  mimeType: string;
}

export const multipartMessages = { notMultipart: httpMessages.notMultipart, malformed: httpMessages.multipartMalformed } as const;

/** A busboy parser for the body's Content-Type; anything but multipart/form-data with a boundary is a 400. */
function parserFor(headers: Record<string, string>, config: Omit<busboy.BusboyConfig, 'headers'>): busboy.Busboy {
  const contentType = headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(contentType)) throw new ValidationError(multipartMessages.notMultipart);
  try {
    return busboy({ headers: { 'content-type': contentType }, ...config });
  } catch {
    // No boundary, or a Content-Type busboy cannot parse.
    throw new ValidationError(multipartMessages.notMultipart);
  }
}

/** One file's bytes (up to the parser's fileSize limit, then `truncated`). Never rejects: a stream error calls `fail`. */
function collect(stream: NodeJS.ReadableStream, info: busboy.FileInfo, fail: () => void): Promise<UploadedFile> {
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    let truncated = false;
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => (truncated = true));
    stream.on('error', fail);
    stream.on('end', () => done({ bytes: Buffer.concat(chunks), truncated, filename: info.filename ?? '', mimeType: info.mimeType ?? '' }));
  });
}

/** The files of `field` (at most `maxFiles`; more → `tooMany`); parts of other names are read past. */
function readFiles(
  headers: Record<string, string>,
  body: Buffer,
  field: string,
  limits: { maxBytes: number; maxFiles: number },
  config: Pick<busboy.BusboyConfig, 'defParamCharset'> = {},
): Promise<{ files: UploadedFile[]; tooMany: boolean }> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = () => {
      if (settled) return;
      settled = true;
      reject(new ValidationError(multipartMessages.malformed));
    };
    let parser: busboy.Busboy;
    try {
      parser = parserFor(headers, { ...config, limits: { files: limits.maxFiles, fileSize: limits.maxBytes, fields: 20 } });
    } catch (error) {
      reject(error);
      return;
    }
    const found: Promise<UploadedFile>[] = [];
    let tooMany = false;
    parser.on('filesLimit', () => (tooMany = true));
    parser.on('file', (name, stream, info) => {
      if (name !== field) {
        stream.on('error', fail);
        stream.resume();
        return;
      }
      found.push(collect(stream, info, fail));
    });
    parser.on('error', fail);
    // busboy waits for every file stream to end before it finishes, so each `found` has settled or failed by now.
    parser.on('close', () => {
      void Promise.all(found).then((files) => {
        if (settled) return;
        settled = true;
        resolve({ files, tooMany });
      });
    });
    try {
      parser.end(body);
    } catch {
      fail();
    }
  });
}

/** The first file of `field` (stopped at `maxBytes`, then `truncated`), or null when the body has none. */
export async function readMultipartFile(
  headers: Record<string, string>,
  body: Buffer,
  field: string,
  maxBytes: number,
): Promise<UploadedFile | null> {
  const { files } = await readFiles(headers, body, field, { maxBytes, maxFiles: 1 });
  return files[0] ?? null;
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
  return readFiles(headers, body, field, limits, { defParamCharset: 'utf8' });
}
