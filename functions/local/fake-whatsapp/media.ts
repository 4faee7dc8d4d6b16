/**
 * The fake Graph API's media endpoints (issue 31), mounted by server.ts:
 *
 *   GET  /{media-id}?phone_number_id=…   Bearer required → {messaging_product, url, mime_type, sha256,
 *                                        file_size (a string, as Meta's samples show it), id}; an id
 *                                        it does not know → 400 code 100 subcode 33 (Meta's "does not exist")
 *   GET  /whatsapp_business/attachments/?mid=…&ext=…&hash=…
 *                                        the download URL each GET /{media-id} issues (like Meta's
 *                                        lookaside.fbsbx.com): the bytes, only with the Bearer token the
 *                                        URL was issued to; valid for `urlSeconds` (default 300), then
 *                                        404 as Meta answers an expired URL
 *   POST /{phone-id}/media               multipart (messaging_product=whatsapp, type, file): Meta's
 *                                        supported types and size limits checked → {id}; the upload can
 *                                        be looked up and downloaded like inbound media
 *
 * Control API (JSON):
 *   POST /_test/media          {bytes (base64), mimeType, mediaId?, wrongSha256?, declaredSize?,
 *                              notFound?, expiredUrls?, chunked?, fileSizeAs?} → {mediaId, sha256, size}
 *                              registers a customer's media: `wrongSha256` declares another hash,
 *                              `declaredSize` declares a size other than the bytes', `notFound` 404s
 *                              the id, `expiredUrls` n: the first n URLs issued are already expired,
 *                              `chunked` sends the download without Content-Length
 *   GET  /_test/media/{id}     what happened to it: {describes, downloads, expiredDownloads, …}
 *   POST /_test/media/expiry   {seconds}: how long the URLs issued from now on stay valid (0 = expired)
 *   GET  /_test/media/uploads?phoneId=…   the uploads received (no bytes)
 *   GET  /_test/media/uploads/{id}        one upload's bytes (its Content-Type)
 *   POST /_test/media/reset    forgets every media and upload, URLs back to 300 s
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonObject, sendJson } from '../fake-http.js';

const MB = 1024 * 1024;
/** Meta's lookaside URLs live about 5 minutes. */
export const DEFAULT_URL_SECONDS = 300;
/** Base64 of the largest media a test registers (Meta's 100 MB document limit, with base64's third). */
const MAX_CONTROL_BODY = 140 * MB;
const DOWNLOAD_PATH = '/whatsapp_business/attachments/';

/** Meta's supported media types and their upload limits (Cloud API "Supported media types"). */
const SUPPORTED: Record<string, { kind: string; maxBytes: number }> = {
  'audio/aac': { kind: 'audio', maxBytes: 16 * MB },
  'audio/amr': { kind: 'audio', maxBytes: 16 * MB },
  'audio/mpeg': { kind: 'audio', maxBytes: 16 * MB },
  'audio/mp4': { kind: 'audio', maxBytes: 16 * MB },
  'audio/ogg': { kind: 'audio', maxBytes: 16 * MB },
  'text/plain': { kind: 'document', maxBytes: 100 * MB },
  'application/pdf': { kind: 'document', maxBytes: 100 * MB },
  'application/vnd.ms-powerpoint': { kind: 'document', maxBytes: 100 * MB },
  'application/msword': { kind: 'document', maxBytes: 100 * MB },
  'application/vnd.ms-excel': { kind: 'document', maxBytes: 100 * MB },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': { kind: 'document', maxBytes: 100 * MB },
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': { kind: 'document', maxBytes: 100 * MB },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { kind: 'document', maxBytes: 100 * MB },
  'image/jpeg': { kind: 'image', maxBytes: 5 * MB },
  'image/png': { kind: 'image', maxBytes: 5 * MB },
  'image/webp': { kind: 'sticker', maxBytes: 500 * 1024 },
  'video/3gpp': { kind: 'video', maxBytes: 16 * MB },
  'video/mp4': { kind: 'video', maxBytes: 16 * MB },
};

export interface FakeMediaItem {
  mediaId: string;
  mimeType: string;
  bytes: Buffer;
  /** What GET /{media-id} declares. */
  sha256: string;
  fileSize: number;
  fileSizeAs: 'string' | 'number';
  notFound: boolean;
  /** URLs still to issue already expired. */
  expiredUrls: number;
  chunked: boolean;
  describes: number;
  downloads: number;
  expiredDownloads: number;
  /** An owner's upload: the phone id it was uploaded for, its file name. */
  upload?: { phoneId: string; fileName: string; type: string; at: string };
}

/** A Graph error the module answers (server.ts's shape). */
export interface MediaGraphError {
  status: number;
  code: number;
  message: string;
  type?: string;
  subcode?: number;
  details?: string;
}

export interface FakeMediaOptions {
  /** The fake's base URL (http://127.0.0.1:port), for the download URLs it issues. */
  baseUrl: () => string;
  /** The Bearer token of a request, or a thrown error (server.ts's checkToken). */
  checkToken: (req: IncomingMessage) => string;
  /** Answers a Graph error in Meta's shape (server.ts's sendError). */
  sendError: (res: ServerResponse, error: MediaGraphError) => void;
}

export interface FakeMedia {
  /** The Graph media API; false when the request is not one of its paths. */
  handle(req: IncomingMessage, res: ServerResponse, method: string, path: string, query: URLSearchParams): Promise<boolean>;
  /** /_test/media…; false for any other path. */
  control(req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<boolean>;
  /** A media id the fake knows (registered or uploaded): a send of it is a send of real media. */
  knows(mediaId: string): boolean;
  register(input: { bytes: Buffer; mimeType: string } & Partial<Pick<FakeMediaItem, 'mediaId' | 'notFound' | 'expiredUrls' | 'chunked' | 'fileSizeAs'>> & { wrongSha256?: boolean; declaredSize?: number }): FakeMediaItem;
  reset(): void;
}

const hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const newMediaId = () => `${randomInt(1, 10)}${Array.from({ length: 15 }, () => randomInt(0, 10)).join('')}`;
const mimeOf = (type: string) => type.split(';')[0]!.trim().toLowerCase();

const notFoundError = (id: string): MediaGraphError => ({
  status: 400,
  code: 100,
  subcode: 33,
  type: 'GraphMethodException',
  message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
});

export function createFakeMedia(options: FakeMediaOptions): FakeMedia {
  const items = new Map<string, FakeMediaItem>();
  /** Issued download URLs: hash → the media, the token it was issued to, when it expires. */
  const urls = new Map<string, { mediaId: string; token: string; expiresAt: number }>();
  let urlSeconds = DEFAULT_URL_SECONDS;

  const register: FakeMedia['register'] = (input) => {
    const mediaId = input.mediaId ?? newMediaId();
    const real = hex(input.bytes);
    const item: FakeMediaItem = {
      mediaId,
      mimeType: input.mimeType,
      bytes: input.bytes,
      sha256: input.wrongSha256 ? hex(Buffer.concat([input.bytes, Buffer.from('not the same')])) : real,
      fileSize: input.declaredSize ?? input.bytes.length,
      fileSizeAs: input.fileSizeAs === 'number' ? 'number' : 'string',
      notFound: input.notFound === true,
      expiredUrls: Math.max(0, Math.floor(input.expiredUrls ?? 0)),
      chunked: input.chunked === true,
      describes: 0,
      downloads: 0,
      expiredDownloads: 0,
    };
    items.set(mediaId, item);
    return item;
  };

  /** GET /{media-id}: Meta's description and a fresh download URL for this token. */
  function describe(req: IncomingMessage, res: ServerResponse, item: FakeMediaItem | undefined, id: string): void {
    const token = options.checkToken(req);
    if (!item || item.notFound) return options.sendError(res, notFoundError(id));
    item.describes += 1;
    const hash = randomBytes(18).toString('base64url');
    const expired = item.expiredUrls > 0;
    if (expired) item.expiredUrls -= 1;
    urls.set(hash, { mediaId: item.mediaId, token, expiresAt: expired ? 0 : Date.now() + urlSeconds * 1000 });
    const ext = Math.floor(Date.now() / 1000) + urlSeconds;
    sendJson(res, 200, {
      messaging_product: 'whatsapp',
      url: `${options.baseUrl()}${DOWNLOAD_PATH}?mid=${item.mediaId}&ext=${ext}&hash=${hash}`,
      mime_type: item.mimeType,
      sha256: item.sha256,
      file_size: item.fileSizeAs === 'number' ? item.fileSize : String(item.fileSize),
      id: item.mediaId,
    });
  }

  /** The download URL: the bytes, with the token it was issued to, while it is valid. */
  function download(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): void {
    const token = options.checkToken(req);
    const issued = urls.get(query.get('hash') ?? '');
    const item = issued && issued.mediaId === query.get('mid') ? items.get(issued.mediaId) : undefined;
    if (!issued || !item || issued.token !== token) {
      return options.sendError(res, { status: 401, code: 190, message: 'Invalid OAuth access token - the URL was not issued to this token' });
    }
    if (Date.now() >= issued.expiresAt) {
      item.expiredDownloads += 1;
      // Meta answers an expired lookaside URL with 404.
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('URL signature expired');
      return;
    }
    item.downloads += 1;
    res.writeHead(200, { 'content-type': item.mimeType, ...(item.chunked ? {} : { 'content-length': String(item.bytes.length) }) });
    // Written in 64 KB pieces, as a network delivers it.
    for (let at = 0; at < item.bytes.length; at += 64 * 1024) res.write(item.bytes.subarray(at, at + 64 * 1024));
    res.end();
  }

  /** POST /{phone-id}/media: Meta's multipart upload, its types and limits. */
  async function upload(req: IncomingMessage, res: ServerResponse, phoneId: string): Promise<void> {
    options.checkToken(req);
    if (!/^\d+$/.test(phoneId)) return options.sendError(res, notFoundError(phoneId));
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > 100 * MB + 64 * 1024) {
      req.resume();
      return options.sendError(res, { status: 400, code: 131053, message: '(#131053) Media upload error', details: 'File size too large.' });
    }
    let form: FormData;
    try {
      const request = new Request('http://fake-whatsapp/upload', {
        method: 'POST',
        headers: { 'content-type': String(req.headers['content-type'] ?? '') },
        body: req as unknown as ReadableStream<Uint8Array>,
        duplex: 'half',
      } as RequestInit);
      form = await request.formData();
    } catch {
      return options.sendError(res, { status: 400, code: 100, message: '(#100) The parameter file is required.' });
    }
    if (form.get('messaging_product') !== 'whatsapp') return options.sendError(res, { status: 400, code: 100, message: '(#100) The parameter messaging_product is required.' });
    const file = form.get('file');
    if (!file || typeof file === 'string') return options.sendError(res, { status: 400, code: 100, message: '(#100) The parameter file is required.' });
    const type = form.get('type');
    if (typeof type !== 'string' || !type) return options.sendError(res, { status: 400, code: 100, message: '(#100) The parameter type is required.' });
    const supported = SUPPORTED[mimeOf(type)];
    if (!supported || mimeOf(file.type || type) !== mimeOf(type)) {
      return options.sendError(res, {
        status: 400,
        code: 100,
        message: `(#100) Param file must be a file with one of the following types: ${Object.keys(SUPPORTED).join(', ')}. Received file of type '${file.type || type}'.`,
      });
    }
    const bytes = Buffer.from(await file.arrayBuffer());
    if (bytes.length === 0 || bytes.length > supported.maxBytes) {
      return options.sendError(res, {
        status: 400,
        code: 131053,
        message: '(#131053) Media upload error',
        details: bytes.length === 0 ? 'The file is empty.' : `File size too large: ${supported.kind} files are limited to ${supported.maxBytes} bytes.`,
      });
    }
    const item = register({ bytes, mimeType: mimeOf(type) });
    item.upload = { phoneId, fileName: file.name, type: mimeOf(type), at: new Date().toISOString() };
    sendJson(res, 200, { id: item.mediaId });
  }

  const uploadView = (item: FakeMediaItem) => ({
    id: item.mediaId,
    phoneId: item.upload?.phoneId ?? '',
    fileName: item.upload?.fileName ?? '',
    mimeType: item.mimeType,
    size: item.bytes.length,
    sha256: hex(item.bytes),
    at: item.upload?.at ?? '',
  });

  const itemView = (item: FakeMediaItem) => ({
    mediaId: item.mediaId,
    mimeType: item.mimeType,
    size: item.bytes.length,
    sha256: item.sha256,
    fileSize: item.fileSize,
    notFound: item.notFound,
    describes: item.describes,
    downloads: item.downloads,
    expiredDownloads: item.expiredDownloads,
  });

  const controlError = (message: string) => new Error(message);
  const readControl = (req: IncomingMessage) =>
    readJsonObject(req, MAX_CONTROL_BODY, { tooLarge: () => controlError('body too large'), invalid: () => controlError('a JSON object is required') });

  return {
    knows: (mediaId) => items.has(mediaId) && !items.get(mediaId)!.notFound,
    register,
    reset() {
      items.clear();
      urls.clear();
      urlSeconds = DEFAULT_URL_SECONDS;
    },

    async handle(req, res, method, path, query) {
      if (method === 'GET' && (path === DOWNLOAD_PATH || path === DOWNLOAD_PATH.slice(0, -1))) {
        download(req, res, query);
        return true;
      }
      const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
      if (method === 'POST' && parts.length === 2 && parts[1] === 'media') {
        await upload(req, res, parts[0]!);
        return true;
      }
      // GET /{id}: media when the fake knows the id or the caller asks as for media (phone_number_id).
      if (method === 'GET' && parts.length === 1 && (items.has(parts[0]!) || query.has('phone_number_id'))) {
        describe(req, res, items.get(parts[0]!), parts[0]!);
        return true;
      }
      return false;
    },

    async control(req, res, method, url) {
      const path = url.pathname;
      if (path !== '/_test/media' && !path.startsWith('/_test/media/')) return false;
      try {
        if (method === 'POST' && path === '/_test/media') {
          const body = await readControl(req);
          if (typeof body.bytes !== 'string' || typeof body.mimeType !== 'string' || !body.mimeType) {
            sendJson(res, 400, { error: { message: 'bytes (base64) and mimeType are required' } });
            return true;
          }
          const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
          const item = register({
            bytes: Buffer.from(body.bytes, 'base64'),
            mimeType: body.mimeType,
            ...(typeof body.mediaId === 'string' && /^\d{1,30}$/.test(body.mediaId) ? { mediaId: body.mediaId } : {}),
            wrongSha256: body.wrongSha256 === true,
            ...(num(body.declaredSize) !== undefined ? { declaredSize: num(body.declaredSize) } : {}),
            notFound: body.notFound === true,
            ...(num(body.expiredUrls) !== undefined ? { expiredUrls: num(body.expiredUrls) } : {}),
            chunked: body.chunked === true,
            fileSizeAs: body.fileSizeAs === 'number' ? 'number' : 'string',
          });
          sendJson(res, 200, itemView(item));
          return true;
        }
        if (method === 'POST' && path === '/_test/media/expiry') {
          const body = await readControl(req);
          if (typeof body.seconds !== 'number' || !Number.isFinite(body.seconds) || body.seconds < 0) {
            sendJson(res, 400, { error: { message: 'seconds (≥ 0) is required' } });
            return true;
          }
          urlSeconds = body.seconds;
          sendJson(res, 200, { ok: true, seconds: urlSeconds });
          return true;
        }
        if (method === 'POST' && path === '/_test/media/reset') {
          items.clear();
          urls.clear();
          urlSeconds = DEFAULT_URL_SECONDS;
          sendJson(res, 200, { ok: true });
          return true;
        }
        if (method === 'GET' && path === '/_test/media/uploads') {
          const phoneId = url.searchParams.get('phoneId');
          const uploads = [...items.values()].filter((i) => i.upload && (phoneId === null || i.upload.phoneId === phoneId)).map(uploadView);
          sendJson(res, 200, { uploads });
          return true;
        }
        const uploadId = /^\/_test\/media\/uploads\/([^/]+)$/.exec(path)?.[1];
        if (method === 'GET' && uploadId) {
          const item = items.get(decodeURIComponent(uploadId));
          if (!item?.upload) {
            sendJson(res, 404, { error: { message: 'no such upload' } });
            return true;
          }
          res.writeHead(200, { 'content-type': item.mimeType, 'content-length': String(item.bytes.length) });
          res.end(item.bytes);
          return true;
        }
        const mediaId = /^\/_test\/media\/([^/]+)$/.exec(path)?.[1];
        if (method === 'GET' && mediaId) {
          const item = items.get(decodeURIComponent(mediaId));
          if (!item) sendJson(res, 404, { error: { message: 'no such media' } });
          else sendJson(res, 200, itemView(item));
          return true;
        }
        sendJson(res, 404, { error: { message: `Unknown control call ${method} ${path}` } });
      } catch (error) {
        sendJson(res, 400, { error: { message: (error as Error).message } });
      }
      return true;
    },
  };
}
