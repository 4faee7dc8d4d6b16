/**
 * Route fuzzing support (issue 14): a raw HTTP sender that can put any bytes in the path, the
 * headers and the body (fetch would normalise `..` and refuse some paths), fast-check arbitraries
 * of boundary values, the "no internals in the body" check and the run's counters.
 */
import { Agent, request } from 'node:http';
import fc from 'fast-check';
import type * as z from 'zod/mini';
import { provided } from './api.js';

// ---------------------------------------------------------------------------------------------
// Sending

export interface FuzzRequest {
  method: string;
  /** Raw request target after the origin: path (already percent-encoded where needed) and query. */
  target: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

export interface FuzzResponse {
  status: number;
  contentType: string;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** Sends the request as is (no normalisation); a network error counts as status 0. */
export function send(req: FuzzRequest): Promise<FuzzResponse> {
  const origin = new URL(provided('apiUrl'));
  const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
  const headers: Record<string, string | number> = { ...req.headers };
  if (body) headers['content-length'] = body.length;
  return new Promise((resolve) => {
    const r = request(
      { host: origin.hostname, port: origin.port, method: req.method, path: req.target, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', (e) => resolve({ status: 0, contentType: '', text: String(e) }));
      },
    );
    r.setTimeout(60_000, () => r.destroy(new Error('client timeout')));
    r.on('error', (e) => resolve({ status: 0, contentType: '', text: String(e) }));
    r.end(body);
  });
}

/**
 * Whether the stack still serves after a case: GET /config.json, which the gateway answers itself
 * (no handler, no DynamoDB), so the probe costs about a millisecond. A case whose answer went out
 * but whose handler then threw outside the request (a stream 'error' nobody listened to) kills
 * the process only after the response: the next request is what notices.
 */
export async function stillServing(): Promise<boolean> {
  const res = await send({ method: 'GET', target: '/config.json' });
  return res.status === 200;
}

/** Percent-encodes what Node refuses in a request path (non-ASCII, spaces, controls) and '#' and '?', keeping the rest (`..`, `%2F`) raw. */
export function rawSegment(value: string): string {
  return Array.from(value)
    .map((ch) => {
      if (/^[\x21-\x7e]$/.test(ch) && ch !== '#' && ch !== '?') return ch;
      // A lone surrogate has no UTF-8 form: send its CESU-8 bytes (invalid UTF-8) as a client might.
      return /^[\uD800-\uDFFF]$/.test(ch) ? `%ED%${(0xa0 + ((ch.charCodeAt(0) >> 6) & 0x1f)).toString(16).toUpperCase()}%${(0x80 + (ch.charCodeAt(0) & 0x3f)).toString(16).toUpperCase()}` : encodeURIComponent(ch);
    })
    .join('');
}

// ---------------------------------------------------------------------------------------------
// What a response must never show

const INTERNALS: readonly RegExp[] = [
  /\n\s*at\s+\S/, // a stack frame on its own line
  /\bat\s+(?:async\s+)?[\w$.<>[\] ]*\(?(?:file:\/\/|node:|\/)[^\s)]*:\d+:\d+/, // "at fn (/path/file.js:1:2)"
  /\b[A-Z]?\w*Error:/, // "Error: …", "TypeError: …"
  /\b(?:TypeError|RangeError|ReferenceError|SyntaxError|AggregateError)\b/,
  /\b(?:ValidationException|ConditionalCheckFailed\w*|ResourceNotFoundException|TransactionCanceled\w*|TransactionConflict\w*|ProvisionedThroughputExceeded\w*|ThrottlingException|AccessDeniedException|SerializationException|UnrecognizedClientException|ItemCollectionSizeLimitExceeded\w*|InternalServerError\b|NotAuthorizedException|UserNotFoundException|InvalidParameterException|CodeMismatchException|ExpiredCodeException|LimitExceededException|TooManyRequestsException|InvalidPasswordException|UsernameExistsException|NoSuchKey|NoSuchBucket|EntityTooLarge|KMSInvalid\w*|InvalidCiphertext\w*|StripeInvalidRequestError|StripeAuthenticationError)\b/,
  /\b(?:ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|ERR_[A-Z_]{4,})\b/,
  /\/work\/|node_modules|\/home\/|\/tmp\/|file:\/\//,
  /Cannot read propert|is not a function|undefined is not|Maximum call stack|Unexpected token|in JSON at position|Unexpected end of JSON/,
  // An IP address that is not the host of a URL the API legitimately hands out (webhook URLs).
  /(?<![\w.:/])(?:\d{1,3}\.){3}\d{1,3}(?![\w.])/,
];

/**
 * The internals a response shows, ignoring text the request itself carried (an echoed value is
 * not a leak) and URLs of the local stack (the API hands out its own webhook URLs).
 */
export function internalsIn(responseText: string, requestText: string): string[] {
  const text = responseText.replace(/https?:\/\/127\.0\.0\.1:\d+/g, 'http://local');
  const found: string[] = [];
  for (const re of INTERNALS) {
    const m = re.exec(text);
    if (m && !requestText.includes(m[0].trim())) found.push(m[0]);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Counters (printed at the end of the run)

export class FuzzStats {
  sent = 0;
  readonly byStatus = new Map<number, number>();
  readonly fiveHundreds: string[] = [];
  readonly known: string[] = [];
  readonly leaks: string[] = [];
  /** Cases after which the stack no longer answered (stillServing). */
  readonly stopped: string[] = [];
  readonly routes = new Set<string>();
  readonly msByRoute = new Map<string, number>();

  record(route: string, status: number): void {
    this.sent++;
    this.routes.add(route);
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
  }

  summary(): string {
    const statuses = [...this.byStatus.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(', ');
    const five = [...this.byStatus.entries()].filter(([s]) => s >= 500 || s === 0).reduce((n, [, c]) => n + c, 0);
    return [
      `route fuzz: ${this.sent} requests over ${this.routes.size} routes`,
      `  per status: ${statuses}`,
      `  5xx (or no answer): ${five}${this.known.length ? ` (${this.known.length} on known cases)` : ''}`,
      `  bodies showing internals: ${this.leaks.length}`,
      `  cases after which the stack stopped serving: ${this.stopped.length}`,
      `  slowest routes: ${[...this.msByRoute.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([r, ms]) => `${r} ${(ms / 1000).toFixed(1)} s`).join(', ')}`,
      ...this.known.map((k) => `  known: ${k}`),
    ].join('\n');
  }
}

// ---------------------------------------------------------------------------------------------
// Boundary values

const deep = (levels: number, leaf: unknown, kind: 'array' | 'object'): unknown => {
  let v = leaf;
  for (let i = 0; i < levels; i++) v = kind === 'array' ? [v] : { a: v };
  return v;
};

export const manyKeys = (n: number): Record<string, number> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

/** Strings that break naive code: empty, blank, control characters, unicode edge cases, sizes. */
export const boundaryString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(
    '',
    ' ',
    '   \t\n ',
    '\u0000',
    'a\u0000b',
    '\u202Eevil\u202C', // RTL override
    'مرحبا بالعالم', // Arabic (RTL)
    'שלום',
    '👩‍👩‍👧‍👦🏳️‍🌈',
    '\uD800', // lone high surrogate
    '\uDFFF', // lone low surrogate
    'a\uD83D',
    '\u200B\u200C\u200D\uFEFF',
    'e\u0301'.repeat(50),
    'Z̴̡̛͉͇̹͓͉͛̈́͌a̵l̶g̵o̷',
    '\r\n\r\n',
    '../../../../etc/passwd',
    '%00%2F%2e%2e',
    '${7*7}{{7*7}}<%= 7*7 %>',
    '<script>alert(1)</script>',
    "'; DROP TABLE users; --",
    '__proto__',
    'constructor',
    'toString',
    'null',
    'undefined',
    'NaN',
    'Infinity',
    '-Infinity',
    '1e308',
    '-1e308',
    '1e999',
    '-0',
    '0x1F',
    '9007199254740993',
    '-9007199254740993',
    '  42  ',
    '+00000000000000000000001',
    'USER#someone',
    'a#b|c',
    '***',
  ) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.constantFrom(5_000, 70_000).map((n) => 'a'.repeat(n)) },
  { weight: 1, arbitrary: fc.constantFrom('é', '😀', '\uD800').map((c) => c.repeat(5_000)) },
  { weight: 1, arbitrary: fc.constant('x'.repeat(500_000)) }, // beyond a DynamoDB item
);

/** Numbers (and number-like strings) at the edges. */
export const boundaryNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 1.5, -1.5, 0.1, 2 ** 31, -(2 ** 31), 2 ** 53 + 2, -(2 ** 53) - 2, 1e308, -1e308, Number.MIN_VALUE, 1e21, 123456789012),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom('NaN', 'Infinity', '-1', '1e308', '-1e308', '1e999', '0.5', ' 1 ', '1,000', '١٢٣'),
);

/** A value of any other type, or an odd shape. */
export const boundaryValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: boundaryString },
  { weight: 4, arbitrary: boundaryNumber },
  { weight: 3, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], [[]], { '': '' }, ['a', 1, null]) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(40, 64, 200).chain((n) => fc.constantFrom(deep(n, 'x', 'array'), deep(n, 'x', 'object'))) },
  { weight: 1, arbitrary: fc.constant({ __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } }) },
  { weight: 1, arbitrary: fc.constant(null).map(() => manyKeys(50_000)) },
  { weight: 1, arbitrary: fc.constant(null).map(() => Array.from({ length: 10_000 }, (_, i) => `item ${i}`)) },
);

/** Path parameter values (raw request-path segments): sizes, unicode, traversal, encoded slashes, odd encodings. */
export const boundaryPathSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(
    '..',
    '.',
    '%2e%2e',
    '%2F',
    'a%2Fb',
    '..%2F..%2Fetc%2Fpasswd',
    '%00',
    'a%00b',
    '%',
    '%ZZ',
    '%E0%A4%A',
    '%F0%9F%98%80',
    '%FF%FE',
    '%ED%A0%80', // an encoded lone surrogate
    '%20',
    '%09',
    '%23',
    '%3F',
    "'",
    '"',
    '<>',
    '{id}',
    '*',
    'null',
    'undefined',
    '__proto__',
    'constructor',
    '0',
    '-1',
    '1e308',
    'USER%23x',
    'a|b',
    '~',
  ) },
  { weight: 2, arbitrary: fc.constantFrom(300, 1_025, 2_049, 5_000).map((n) => 'a'.repeat(n)) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(rawSegment) },
  { weight: 1, arbitrary: fc.constantFrom('é', '😀', '\u202E').map((c) => rawSegment(c.repeat(1_000))) },
  { weight: 2, arbitrary: fc.uuid().map(String) },
);

/** Query strings: negative/huge numbers, arrays, odd keys, sizes, unicode (raw, after the '?'). */
export function boundaryQuery(keys: readonly string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 4, arbitrary: keys.length ? fc.constantFrom(...keys) : fc.constant('page') },
    { weight: 1, arbitrary: fc.constantFrom('page', 'limit', 'search', 'status', 'timeFilter', 'page[]', 'limit[0]', '', '__proto__', 'constructor', 'a'.repeat(1_000)) },
  );
  const value = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('-1', '0', '1', '1e308', '-1e308', '1.5', 'NaN', 'Infinity', '99999999999999999999', '', '%', '%00', '%ZZ', 'true', 'all', 'x,y') },
    // Values stay under API Gateway's 10 KB request line (a longer line never reaches a handler).
    { weight: 2, arbitrary: boundaryString.filter((s) => s.length <= 1_000).map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, '?'))) },
    { weight: 1, arbitrary: fc.constantFrom('a'.repeat(5_000), '%C3%A9'.repeat(1_000)) },
    { weight: 1, arbitrary: fc.constantFrom('\uD800', '\u202E', '👍').map((s) => rawSegment(s)) },
  );
  return fc
    .array(fc.tuple(key, value, fc.boolean()), { minLength: 1, maxLength: 4 })
    .map((pairs) => pairs.map(([k, v, bare]) => (bare && v === '' ? encodeURIComponent(k) : `${encodeURIComponent(k)}=${v}`)).join('&'))
    .map((q) => q.slice(0, 12_000));
}

/** Bodies that are not valid JSON (or not JSON at all). */
export const malformedBody: fc.Arbitrary<Buffer | string> = fc.oneof(
  fc.constantFrom<Buffer | string>(
    '{',
    '}',
    '{"a":',
    '[1,2',
    'nul',
    '{"a":1,}',
    "{'a':1}",
    '\uFEFF{}',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    'NaN',
    '1e999',
    '{"a":1e999}',
    '"just a string"',
    '42',
    'null',
    'true',
    '[]',
    '{"__proto__":{"polluted":1}}',
    '{"a":1,"a":2}',
    '['.repeat(100_000),
    '{"a":'.repeat(20_000),
    Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), // {"a":"<invalid UTF-8>"}
    Buffer.alloc(64, 0),
    'a=1&b=2',
    '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
    '<xml><a>1</a></xml>',
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
);

/**
 * Malformed multipart/form-data bodies (issue 28): each is a 400 on a route that reads
 * multipart, and must never crash the process. `field` is the route's file field.
 */
export const malformedMultipart: readonly { name: string; build: (field: string) => { body: string | Buffer; type: string } }[] = (() => {
  const type = (boundary: string) => `multipart/form-data; boundary=${boundary}`;
  const part = (name: string, content = 'xx', filename = 'a.png') =>
    `--zz\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n${content}\r\n`;
  return [
    // The issue's body: a file part of an unexpected name, then the end of the input.
    { name: 'unexpected field name, then end of input', build: () => ({ body: part('x'), type: type('zz') }) },
    { name: 'the right field, then end of input', build: (field) => ({ body: part(field), type: type('zz') }) },
    { name: 'truncated inside the part', build: (field) => ({ body: part(field, 'x'.repeat(2_000)).slice(0, 300), type: type('zz') }) },
    { name: 'truncated inside the part headers', build: (field) => ({ body: part(field).slice(0, 40), type: type('zz') }) },
    { name: 'wrong boundary', build: (field) => ({ body: `${part(field)}--zz--\r\n`, type: type('other') }) },
    { name: 'missing boundary', build: (field) => ({ body: `${part(field)}--zz--\r\n`, type: 'multipart/form-data' }) },
    { name: 'empty body', build: () => ({ body: '', type: type('zz') }) },
    { name: 'unexpected names only', build: () => ({ body: `${part('x')}${part('y', 'yy', '../../etc/passwd')}--zz--\r\n`, type: type('zz') }) },
    {
      name: 'nested multipart/mixed',
      build: (field) => ({
        body: `--zz\r\nContent-Disposition: form-data; name="${field}"\r\nContent-Type: multipart/mixed; boundary=inner\r\n\r\n--inner\r\nContent-Disposition: file; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhi\r\n--inner--\r\n\r\n--zz--\r\n`,
        type: type('zz'),
      }),
    },
    { name: '1,000 parts', build: (field) => ({ body: `${Array.from({ length: 1_000 }, (_, i) => part(i % 2 ? field : `f${i}`, 'x', `${i}.txt`)).join('')}--zz--\r\n`, type: type('zz') }) },
    { name: '1,000 parts, then end of input', build: (field) => ({ body: Array.from({ length: 1_000 }, (_, i) => part(i % 2 ? field : `f${i}`, 'x', `${i}.txt`)).join(''), type: type('zz') }) },
    { name: 'header-only parts', build: (field) => ({ body: `--zz\r\nContent-Disposition: form-data; name="${field}"; filename="a"\r\n--zz\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n--zz--\r\n`, type: type('zz') }) },
    { name: 'huge header line', build: (field) => ({ body: `--zz\r\nContent-Disposition: form-data; name="${field}"; filename="${'a'.repeat(100_000)}"\r\n\r\nxx\r\n--zz--\r\n`, type: type('zz') }) },
    { name: 'binary part headers', build: () => ({ body: Buffer.concat([Buffer.from('--zz\r\n'), Buffer.from([0, 1, 0xff, 0x3a, 0x20, 0x0d, 0x0a, 0x0d, 0x0a]), Buffer.from('xx\r\n--zz--\r\n')]), type: type('zz') }) },
  ];
})();

/** Content types, right, wrong and broken. */
export const contentType: fc.Arbitrary<string | undefined> = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'multipart/form-data; boundary=',
  'application/octet-stream',
  'application/xml',
  'image/png',
  'foo/bar;;;=',
  '',
);

/** Authorization headers that must be refused (never crash). */
export const badAuthorization: fc.Arbitrary<Record<string, string>> = fc.oneof(
  fc.constant({}),
  fc.constantFrom(
    'Bearer',
    'Bearer ',
    'Bearer garbage',
    'Bearer a.b.c',
    'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
    'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4IiwiZXhwIjoxfQ.c2ln',
    `Bearer ${'a'.repeat(8_000)}`,
    'Basic dXNlcjpwYXNz',
    'bearer ak_0000000000000000000000000000000000000000',
    'Bearer ak_',
    'Bearer ak_\u00e9',
    '\u00e9\u00e9',
  ).map((v) => ({ authorization: v })),
  fc.constantFrom('ak_garbage', 'ak_', '', 'x'.repeat(5_000)).map((v) => ({ 'x-api-key': v })),
);

// ---------------------------------------------------------------------------------------------
// Meta's inbound messages, malformed (issue 31)

const MEDIA_TYPES = ['audio', 'image', 'video', 'document', 'sticker'] as const;

/** A media object in Meta's shape (id, mime_type, sha256, …) with one or two fields replaced by boundary values. */
const brokenMediaObject: fc.Arbitrary<unknown> = fc
  .record({
    fields: fc.uniqueArray(fc.constantFrom('id', 'mime_type', 'sha256', 'caption', 'filename', 'voice', 'file_size', 'animated', 'url'), { minLength: 1, maxLength: 2 }),
    values: fc.array(boundaryValue, { minLength: 2, maxLength: 2 }),
  })
  .map(({ fields, values }) => {
    const media: Record<string, unknown> = { id: '1234567890123456', mime_type: 'audio/ogg; codecs=opus', sha256: 'n0tAr3aLSha256=', voice: true };
    fields.forEach((field, i) => (media[field] = values[i]));
    return media;
  });

/**
 * The type-specific part of a customer's message (`type` and its object; the envelope — from, id,
 * timestamp — is the caller's) as a forged or buggy delivery could carry it: media objects with
 * numbers where strings go (and the other way round), huge captions, locations with strings for
 * numbers, contact cards without phones, interactive replies without ids, unknown or missing types,
 * a type whose object is of another type. An `id` in the result replaces the message's own.
 */
export const malformedMetaMessage: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  // Media objects with a field of the wrong type, too big or missing.
  fc.tuple(fc.constantFrom(...MEDIA_TYPES), brokenMediaObject).map(([type, media]) => ({ type, [type]: media })),
  fc.constantFrom(...MEDIA_TYPES).map((type) => ({ type, [type]: { id: 1234567890123456, mime_type: 42, sha256: null, file_size: 'big', caption: ['x'] } })),
  fc.constantFrom(...MEDIA_TYPES).chain((type) => fc.constantFrom({ type }, { type, [type]: null }, { type, [type]: 'string' }, { type, [type]: [] }, { type, [type]: {} })),
  // Huge captions and file names (Meta's caption limit is 1,024 characters).
  fc.tuple(fc.constantFrom('image', 'video', 'document'), fc.constantFrom(2_000, 100_000), fc.constantFrom('a', 'é', '😀', '\u0000')).map(([type, n, c]) => ({
    type,
    [type]: { id: '1234567890123456', mime_type: type === 'document' ? 'application/pdf' : 'image/jpeg', caption: c.repeat(n), filename: `${c.repeat(n)}.pdf` },
  })),
  // A type whose object is another type's.
  fc.tuple(fc.constantFrom(...MEDIA_TYPES), fc.constantFrom('location', 'contacts', 'interactive', 'text')).map(([type, other]) => ({ type: other, [type]: { id: '1234567890123456', mime_type: 'image/jpeg' } })),
  // Locations with strings (or nonsense) for numbers.
  fc
    .record({ latitude: fc.oneof(fc.constantFrom('40.4168', 'abc', '', 'NaN', '1e999', ' 40,4168 ', '999'), boundaryValue), longitude: fc.oneof(fc.constantFrom('-3.7038', 'xyz', '-999'), boundaryValue), name: fc.option(boundaryString), address: fc.option(boundaryString), url: fc.option(fc.constantFrom('javascript:alert(1)', 'https://maps.google.com/?q=40,-3', 'x'.repeat(10_000))) })
    .map((location) => ({ type: 'location', location })),
  fc.constantFrom({ type: 'location' }, { type: 'location', location: null }, { type: 'location', location: [40.4, -3.7] }, { type: 'location', location: { latitude: { lat: 40 }, longitude: [-3] } }),
  // Contact cards without phones, names or anything.
  fc.constantFrom(
    { type: 'contacts', contacts: [{ name: { formatted_name: 'Dra. Pérez' } }] },
    { type: 'contacts', contacts: [{ name: { formatted_name: 'Dra. Pérez' }, phones: [] }] },
    { type: 'contacts', contacts: [{ name: { formatted_name: 'Dra. Pérez' }, phones: [{}, { phone: 612345678 }, { wa_id: null }] }] },
    { type: 'contacts', contacts: [{}] },
    { type: 'contacts', contacts: [] },
    { type: 'contacts', contacts: 'Dra. Pérez 612 345 678' },
    { type: 'contacts' },
    { type: 'contacts', contacts: Array.from({ length: 500 }, (_, i) => ({ name: { formatted_name: `Contacto ${i}` }, phones: Array.from({ length: 50 }, () => ({ phone: '612 345 678' })) })) },
  ),
  fc.array(fc.record({ name: fc.option(fc.record({ formatted_name: boundaryValue }, { requiredKeys: [] })), phones: fc.option(fc.array(fc.record({ phone: boundaryValue, wa_id: boundaryValue }, { requiredKeys: [] }), { maxLength: 3 })) }, { requiredKeys: [] }), { maxLength: 3 }).map((contacts) => ({ type: 'contacts', contacts })),
  // Interactive replies without ids (or titles), and unknown interactive kinds.
  fc.constantFrom(
    { type: 'interactive', interactive: { type: 'button_reply', button_reply: { title: 'Sí, el martes' } } },
    { type: 'interactive', interactive: { type: 'list_reply', list_reply: { title: 'Ortodoncia invisible', description: 'Primera visita' } } },
    { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'slot-tuesday' } } },
    { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 42, title: ['Sí'] } } },
    { type: 'interactive', interactive: { type: 'nfm_reply', nfm_reply: { response_json: '{"a":', body: 'Sent', name: 'flow' } } },
    { type: 'interactive', interactive: null },
    { type: 'interactive' },
    { type: 'button', button: { text: 'Confirmar' } },
    { type: 'button', button: { payload: 'x'.repeat(10_000) } },
    { type: 'button' },
  ),
  fc.record({ id: boundaryValue, title: boundaryValue }, { requiredKeys: [] }).map((reply) => ({ type: 'interactive', interactive: { type: 'button_reply', button_reply: reply } })),
  // Unknown, missing or odd types (Meta adds types; a forged delivery can say anything).
  fc.constantFrom(
    { type: 'reaction', reaction: { message_id: 'wamid.unknown', emoji: '👍' } },
    { type: 'reaction', reaction: {} },
    { type: 'order', order: { catalog_id: '1', product_items: [{ product_retailer_id: 'x', quantity: 'many', item_price: 'free' }] } },
    { type: 'system', system: { body: 'Customer changed number', new_wa_id: 12 } },
    { type: 'unsupported', errors: [{ code: 131051, title: 'Message type unknown' }] },
    { type: 'ephemeral' },
    { type: 'poll', poll: { question: '¿Martes o jueves?' } },
    {},
    { type: null },
    { type: 42 },
    { type: ['image'], image: { id: '1' } },
  ),
  fc.tuple(boundaryString.filter((t) => t.length < 5_000), boundaryValue).map(([type, value]) => ({ type, [type]: value })),
  // A broken envelope: the message's own id replaced.
  boundaryValue.filter((id) => typeof id !== 'string' || id.length < 5_000).map((id) => ({ type: 'text', text: { body: 'hola' }, id })),
);

// ---------------------------------------------------------------------------------------------
// Schema shapes

type AnyDef = { type?: string; shape?: Record<string, unknown>; in?: unknown; innerType?: unknown };
const defOf = (schema: unknown): AnyDef => ((schema as { _zod?: { def?: AnyDef } })?._zod?.def ?? {}) as AnyDef;

/** The field names of a request schema (through pipes, defaults, optionals and checks). */
export function fieldsOf(schema: z.ZodMiniType | undefined): string[] {
  let s: unknown = schema;
  for (let i = 0; i < 10 && s; i++) {
    const def = defOf(s);
    if (def.type === 'object' && def.shape) return Object.keys(def.shape);
    s = def.in ?? def.innerType;
  }
  return [];
}

/** Paths to the nested fields of an example (objects and arrays, a few levels down). */
function nestedPaths(value: unknown, prefix: (string | number)[] = [], depth = 0): (string | number)[][] {
  if (depth > 3 || value === null || typeof value !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...nestedPaths(v, [...prefix, k], depth + 1)]);
}

/** A deep copy of the example with the value at `path` replaced. */
function replaceAt(example: Record<string, unknown>, path: (string | number)[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(example);
  let node: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
  return copy;
}

/** The example with one or two fields (top-level or nested) replaced by boundary values, some removed, some unknown ones added. */
export function shapedBody(fields: readonly string[], example: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const nested = nestedPaths(example).filter((p) => p.length > 1);
  if (nested.length) {
    const deepOne = fc.tuple(fc.constantFrom(...nested), boundaryValue).map(([path, value]) => replaceAt(example, path, value));
    return fc.oneof({ weight: 3, arbitrary: topLevel(fields, example) }, { weight: 1, arbitrary: deepOne });
  }
  return topLevel(fields, example);
}

function topLevel(fields: readonly string[], example: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const names = fields.length ? fields : Object.keys(example);
  if (!names.length) return fc.dictionary(boundaryString.filter((k) => k.length < 100), boundaryValue, { maxKeys: 3 });
  return fc
    .record({
      replaced: fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: Math.min(2, names.length) }),
      values: fc.array(boundaryValue, { minLength: 2, maxLength: 2 }),
      removed: fc.subarray([...names], { maxLength: 1 }),
      extra: fc.option(fc.dictionary(fc.constantFrom('extra', '__proto__', 'constructor', 'userId', 'pk', 'id', '_id', 'a'.repeat(300)), boundaryValue, { maxKeys: 2 }), { freq: 4 }),
    })
    .map(({ replaced, values, removed, extra }) => {
      const body: Record<string, unknown> = { ...example };
      for (const name of removed) delete body[name];
      replaced.forEach((name, i) => (body[name] = values[i]));
      if (extra) for (const [k, v] of Object.entries(extra)) Object.defineProperty(body, k, { value: v, enumerable: true, configurable: true, writable: true });
      return body;
    });
}

/** A stable 32-bit seed per property: reproducible whatever the order or the set of routes. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}
