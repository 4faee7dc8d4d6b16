/**
 * Turns a Node HTTP request into the API Gateway HTTP API payload v2 event a route-group
 * Lambda receives, and maps the Lambda result back, following the documented format:
 * lower-cased headers with duplicates comma-joined, cookies moved out of the headers,
 * comma-joined repeated query parameters, base64 bodies for non-text content types, and the
 * "inferred" response for results without a statusCode.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  APIGatewayProxyEventV2WithJWTAuthorizer,
  APIGatewayProxyStructuredResultV2,
  APIGatewayRequestAuthorizerEventV2,
} from 'aws-lambda';
import type { AuthorizerResult } from './jwt-authorizer.js';

export interface MatchedRoute {
  routeKey: string;
  pathParameters?: Record<string, string>;
}

const TEXT_TYPES = [
  /^text\//,
  /^application\/(json|javascript|xml|x-yaml|yaml|graphql)\b/,
  /^application\/[\w.+-]+\+(json|xml)\b/,
];

/** API Gateway passes text bodies as-is and base64-encodes everything else (forms, files, images). */
export function isTextContentType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').toLowerCase().trim();
  return type !== '' && TEXT_TYPES.some((re) => re.test(type));
}

export function apiGatewayTime(date: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

/** A JWT authorizer's claims, or a Lambda authorizer's context (payload 2.0: requestContext.authorizer.lambda). */
export type EventAuth = AuthorizerResult | { lambda: Record<string, unknown> } | null;

export function buildEvent(
  req: IncomingMessage,
  body: Buffer,
  route: MatchedRoute,
  auth: EventAuth,
): APIGatewayProxyEventV2WithJWTAuthorizer {
  const url = new URL(req.url ?? '/', 'http://local');
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  // rawHeaders keeps duplicates separate; API Gateway joins them with commas.
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = (req.rawHeaders[i] ?? '').toLowerCase();
    const value = req.rawHeaders[i + 1] ?? '';
    if (name === 'cookie') {
      cookies = [...(cookies ?? []), ...value.split(';').map((c) => c.trim()).filter(Boolean)];
      continue;
    }
    headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }
  const sourceIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  // CloudFront puts the viewer's address on every /api/* request it forwards (the origin request
  // policy forwards its headers), replacing any the client sent: the handlers' client address.
  headers['cloudfront-viewer-address'] = `${sourceIp}:${req.socket.remotePort ?? 0}`;
  headers['x-forwarded-for'] ??= sourceIp;
  headers['x-forwarded-proto'] ??= 'http';
  headers['x-forwarded-port'] ??= String(req.socket.localPort ?? '');

  let query: Record<string, string> | undefined;
  for (const [key, value] of url.searchParams) {
    query ??= {};
    query[key] = key in query ? `${query[key]},${value}` : value;
  }

  const now = new Date();
  const method = (req.method ?? 'GET').toUpperCase();
  const text = isTextContentType(headers['content-type']);
  const event: APIGatewayProxyEventV2WithJWTAuthorizer = {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    ...(cookies ? { cookies } : {}),
    headers,
    ...(query ? { queryStringParameters: query } : {}),
    ...(route.pathParameters && Object.keys(route.pathParameters).length
      ? { pathParameters: route.pathParameters }
      : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0] ?? 'localhost',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: route.routeKey,
      stage: '$default',
      time: apiGatewayTime(now),
      timeEpoch: now.getTime(),
      // Public routes carry no authorizer block at all, as in AWS.
      ...(auth && 'lambda' in auth
        ? { authorizer: { lambda: auth.lambda } }
        : auth
          ? { authorizer: { principalId: '', integrationLatency: 0, jwt: { claims: auth.claims, scopes: auth.scopes } } }
          : {}),
    },
    isBase64Encoded: body.length > 0 && !text,
    ...(body.length > 0 ? { body: text ? body.toString('utf8') : body.toString('base64') } : {}),
  } as APIGatewayProxyEventV2WithJWTAuthorizer;
  return event;
}

/**
 * The payload 2.0 event a Lambda REQUEST authorizer receives for this request: the request's
 * headers, query, cookies, path parameters and context, without the body.
 */
export function buildAuthorizerEvent(requestEvent: APIGatewayProxyEventV2WithJWTAuthorizer): APIGatewayRequestAuthorizerEventV2 {
  const { body: _body, isBase64Encoded: _b64, ...rest } = requestEvent;
  return {
    ...rest,
    type: 'REQUEST',
    routeArn: `arn:aws:execute-api:us-east-1:000000000000:local/$default/${requestEvent.requestContext.http.method}${requestEvent.rawPath}`,
    // No identity source is configured (see infra/lib/api.ts).
    identitySource: [],
  } as unknown as APIGatewayRequestAuthorizerEventV2;
}

/** Write a Lambda result to the HTTP response, as API Gateway's payload v2 mapping does. */
export function writeResult(res: ServerResponse, result: unknown): void {
  if (result === null || typeof result !== 'object' || !('statusCode' in result)) {
    // No statusCode: API Gateway infers 200 with a JSON body.
    const body = typeof result === 'string' ? result : JSON.stringify(result ?? null);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
    return;
  }
  const r = result as APIGatewayProxyStructuredResultV2;
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(r.headers ?? {})) headers[k.toLowerCase()] = String(v);
  if (r.cookies?.length) headers['set-cookie'] = r.cookies;
  const body = r.body === undefined ? Buffer.alloc(0) : Buffer.from(r.body, r.isBase64Encoded ? 'base64' : 'utf8');
  headers['content-length'] = String(body.length);
  res.writeHead(r.statusCode ?? 200, headers);
  res.end(body);
}

export function writeJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...extra,
  });
  res.end(text);
}
