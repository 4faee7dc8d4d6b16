/**
 * s3rver accepts browser form uploads (S3 POST Object) but ignores their policy: no signature
 * check, no expiry, no conditions, no content-length-range. This gate sits on the S3 port in front
 * of it and enforces the POST policy as S3 does, so a local upload that S3 would refuse (too large,
 * another key or Content-Type, expired, forged) is refused here too, with S3's status and error
 * code. Every other request is passed through to s3rver untouched.
 *
 * Checked as S3 documents it (sigv4-HTTPPOSTConstructPolicy, sigv4-post-example): the fields come
 * before the file; X-Amz-Signature is HMAC-SHA256 of the base64 Policy with the SigV4 signing key;
 * the policy has not expired; each condition holds (exact match, eq, starts-with,
 * content-length-range); and every form field other than Policy, X-Amz-Signature, file and
 * x-ignore-* is named by a condition.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import busboy from 'busboy';
import { IDLE_KEEP_ALIVE_MS } from './fake-http.js';

export interface PostPolicyGateOptions {
  host: string;
  port: number;
  /** Where s3rver listens. */
  upstream: { host: string; port: number };
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Origins the bucket's CORS allows (error answers carry Access-Control-Allow-Origin for them, as S3's do). */
  allowedOrigins: ReadonlySet<string>;
  /**
   * A PUT Object with an `x-amz-tagging` header that s3rver stored: S3 keeps the tags with the object,
   * s3rver ignores the header (issue 33: the media's retention tag). Called before the answer is sent.
   */
  onTaggedPut?: (bucket: string, key: string, tagging: string) => Promise<void>;
}

class S3PostError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, string | number> = {},
  ) {
    super(message);
  }
}

const policyFailed = (why: string) => new S3PostError(403, 'AccessDenied', `Invalid according to Policy: ${why}`);

type Condition = Record<string, unknown> | unknown[];

/** Form fields that need no condition (S3: Policy, X-Amz-Signature, file, x-ignore-*). */
const unconditioned = (name: string) => ['policy', 'x-amz-signature', 'file'].includes(name) || name.startsWith('x-ignore-');

const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/**
 * The policy of a POST to `bucket` with these form fields (names lower-cased), checked except for
 * its content-length-range, which is returned for the caller to apply to the file's bytes.
 */
export function checkPostPolicy(
  bucket: string,
  fields: ReadonlyMap<string, string>,
  credentials: PostPolicyGateOptions['credentials'],
  now = new Date(),
): { minBytes: number; maxBytes: number } {
  const encoded = fields.get('policy');
  if (encoded === undefined) throw new S3PostError(403, 'AccessDenied', 'Bucket POST must contain a field named \'Policy\'.  If it is specified, please check the order of the fields.');
  if (fields.get('x-amz-algorithm') !== 'AWS4-HMAC-SHA256') throw new S3PostError(400, 'InvalidRequest', 'The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.');
  const [accessKeyId, date, region, service, terminator] = (fields.get('x-amz-credential') ?? '').split('/');
  if (accessKeyId !== credentials.accessKeyId) throw new S3PostError(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  if (!date || !region || service !== 's3' || terminator !== 'aws4_request') {
    throw new S3PostError(400, 'AuthorizationQueryParametersError', 'Error parsing the X-Amz-Credential parameter.');
  }
  const signingKey = [region, 's3', 'aws4_request'].reduce<Buffer>((key, part) => hmac(key, part), hmac(`AWS4${credentials.secretAccessKey}`, date));
  const expected = hmac(signingKey, encoded);
  const given = Buffer.from(fields.get('x-amz-signature') ?? '', 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new S3PostError(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');
  }

  let policy: { expiration?: unknown; conditions?: unknown };
  try {
    policy = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as typeof policy;
  } catch {
    throw new S3PostError(400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid JSON.');
  }
  const expiration = typeof policy.expiration === 'string' ? Date.parse(policy.expiration) : NaN;
  if (Number.isNaN(expiration)) throw new S3PostError(400, 'InvalidPolicyDocument', 'Invalid Policy: Policy missing expiration.');
  if (expiration < now.getTime()) throw policyFailed('Policy expired.');
  if (!Array.isArray(policy.conditions)) throw new S3PostError(400, 'InvalidPolicyDocument', 'Invalid Policy: Policy missing conditions.');

  const value = (name: string) => (name === 'bucket' ? bucket : fields.get(name));
  const named = new Set<string>();
  let range: { minBytes: number; maxBytes: number } | null = null;
  for (const condition of policy.conditions as Condition[]) {
    if (Array.isArray(condition)) {
      const [op, a, b] = condition;
      if (op === 'content-length-range' && typeof a === 'number' && typeof b === 'number') {
        range = { minBytes: a, maxBytes: b };
        continue;
      }
      if ((op === 'eq' || op === 'starts-with') && typeof a === 'string' && a.startsWith('$') && typeof b === 'string') {
        const name = a.slice(1).toLowerCase();
        named.add(name);
        const actual = value(name) ?? '';
        if (op === 'eq' ? actual !== b : !actual.startsWith(b)) throw policyFailed(`Policy Condition failed: ${JSON.stringify(condition)}`);
        continue;
      }
      throw new S3PostError(400, 'InvalidPolicyDocument', `Invalid Policy: Invalid Condition: ${JSON.stringify(condition)}`);
    }
    for (const [rawName, expected] of Object.entries(condition)) {
      const name = rawName.toLowerCase();
      named.add(name);
      if (value(name) !== expected) throw policyFailed(`Policy Condition failed: ${JSON.stringify(['eq', `$${rawName}`, expected])}`);
    }
  }
  const extra = [...fields.keys()].filter((name) => !unconditioned(name) && !named.has(name));
  if (extra.length > 0) throw policyFailed(`Extra input fields: ${extra.join(', ')}`);
  return range ?? { minBytes: 0, maxBytes: Number.MAX_SAFE_INTEGER };
}

const xmlEscape = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function errorXml(error: S3PostError): string {
  const details = Object.entries(error.details)
    .map(([name, value]) => `<${name}>${xmlEscape(String(value))}</${name}>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.code}</Code><Message>${xmlEscape(error.message)}</Message>${details}</Error>`;
}

export async function startPostPolicyGate(options: PostPolicyGateOptions): Promise<{ stop(): Promise<void> }> {
  const agent = new Agent({ keepAlive: true });

  function forward(req: IncomingMessage, res: ServerResponse, body?: Buffer): void {
    const headers = { ...req.headers };
    if (body) {
      delete headers['transfer-encoding'];
      headers['content-length'] = String(body.length);
    }
    const url = new URL(req.url ?? '/', 'http://s3.local');
    const object = /^\/([^/]+)\/(.+)$/.exec(url.pathname);
    const tagging = req.method === 'PUT' && object && !url.searchParams.has('tagging') ? req.headers['x-amz-tagging'] : undefined;
    const upstream = request(
      { host: options.upstream.host, port: options.upstream.port, method: req.method, path: req.url, headers, agent },
      (answer) => {
        const send = () => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        };
        if (typeof tagging === 'string' && answer.statusCode === 200 && options.onTaggedPut && object) {
          options.onTaggedPut(decodeURIComponent(object[1]!), decodeURIComponent(object[2]!), tagging).then(send, () => {
            answer.resume();
            res.writeHead(500).end();
          });
        } else send();
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    if (body) upstream.end(body);
    else req.pipe(upstream);
  }

  function refuse(req: IncomingMessage, res: ServerResponse, error: S3PostError): void {
    const origin = req.headers.origin;
    const cors: Record<string, string> =
      origin && options.allowedOrigins.has(origin) ? { 'access-control-allow-origin': origin, 'access-control-expose-headers': 'ETag', vary: 'Origin' } : {};
    res.writeHead(error.status, { 'content-type': 'application/xml', ...cors }).end(errorXml(error));
  }

  /** Reads the whole form (S3 reads it too before answering), checking as it goes; the raw body is kept only while it may be stored. */
  function post(req: IncomingMessage, res: ServerResponse, bucket: string): void {
    let raw: Buffer[] | null = [];
    let failure: S3PostError | null = null;
    const fields = new Map<string, string>();
    let range: { minBytes: number; maxBytes: number } | null = null;
    let size = 0;
    let files = 0;
    const fail = (error: S3PostError) => {
      failure ??= error;
      raw = null;
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers });
    } catch {
      refuse(req, res, new S3PostError(400, 'MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.'));
      req.resume();
      return;
    }
    parser.on('field', (name, value) => {
      // Fields after the file are ignored by S3.
      if (files === 0) fields.set(name.toLowerCase(), value);
    });
    parser.on('file', (name, stream) => {
      if (name.toLowerCase() !== 'file' || files++ > 0) {
        stream.resume();
        return;
      }
      try {
        range = checkPostPolicy(bucket, fields, options.credentials);
      } catch (error) {
        fail(error as S3PostError);
      }
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (range && size > range.maxBytes && !failure) {
          fail(new S3PostError(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size', { MaxSizeAllowed: range.maxBytes }));
        }
      });
    });
    parser.on('error', () => fail(new S3PostError(400, 'MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.')));
    parser.on('close', () => {
      if (!failure && files === 0) fail(new S3PostError(400, 'InvalidArgument', 'POST requires exactly one file upload per request.'));
      if (!failure && range && size < range.minBytes) {
        fail(new S3PostError(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size', { MinSizeAllowed: range.minBytes }));
      }
      if (failure) {
        if (failure.code === 'EntityTooLarge' || failure.code === 'EntityTooSmall') failure.details.ProposedSize = size;
        refuse(req, res, failure);
      } else forward(req, res, Buffer.concat(raw ?? []));
    });
    req.on('data', (chunk: Buffer) => raw?.push(chunk));
    req.pipe(parser);
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://s3.local');
    const bucket = /^\/([^/]+)\/?$/.exec(url.pathname)?.[1];
    const isForm = /^multipart\/form-data/i.test(req.headers['content-type'] ?? '');
    if (req.method === 'POST' && bucket && url.search === '' && isForm) post(req, res, decodeURIComponent(bucket));
    else forward(req, res);
  });
  server.keepAliveTimeout = IDLE_KEEP_ALIVE_MS; // longer than any client keeps an idle socket (fake-http.ts)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
