import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, createLocalJWKSet, exportJWK, generateKeyPair } from 'jose';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { routeMatcher, startGateway, type Gateway } from '../../../local/gateway.js';
import type { AnyHandler } from '../../../local/handlers.js';

const issuer = 'http://127.0.0.1:1/local_pool';
const clientId = 'web-client';
let gateway: Gateway;
let signingKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let received: APIGatewayProxyEventV2WithJWTAuthorizer[] = [];
/** What the fake route group does for the next request. */
let behaviour: (event: APIGatewayProxyEventV2WithJWTAuthorizer) => Promise<unknown> = async () => ({ statusCode: 204 });

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  signingKey = privateKey;
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' };
  const echo: AnyHandler = async (event: APIGatewayProxyEventV2WithJWTAuthorizer) => {
    received.push(event);
    return behaviour(event);
  };
  gateway = await startGateway({
    port: 0,
    authorizer: { issuer, audience: [clientId], keys: createLocalJWKSet({ keys: [jwk] }) },
    loadGroup: async (group) => {
      if (group === 'account') return echo;
      if (group === 'auth') return echo;
      throw new Error(`no module for ${group}`);
    },
    publicConfig: { googleClientId: 'g-client' },
    timeoutMs: 200,
    log: () => undefined,
  });
});

afterAll(() => gateway.stop());

async function call(path: string, init: RequestInit = {}) {
  received = [];
  const response = await fetch(`${gateway.url}${path}`, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, event: received[0] };
}

describe('local gateway', () => {
  it('builds an HTTP API v2 event for a public JSON route', async () => {
    behaviour = async () => ({ statusCode: 201, headers: { 'X-Test': 'yes' }, body: '{"ok":true}', cookies: ['a=1', 'b=2'] });

    const res = await call('/api/login?x=1&x=2&y=3', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: 'c1=v1; c2=v2', 'x-dup': 'one' },
      body: '{"email":"a@b.c"}',
    });

    expect(res.event).toMatchObject({
      version: '2.0',
      routeKey: 'POST /api/login',
      rawPath: '/api/login',
      rawQueryString: 'x=1&x=2&y=3',
      queryStringParameters: { x: '1,2', y: '3' },
      cookies: ['c1=v1', 'c2=v2'],
      body: '{"email":"a@b.c"}',
      isBase64Encoded: false,
      requestContext: { routeKey: 'POST /api/login', stage: '$default', http: { method: 'POST', path: '/api/login' } },
    });
    expect(res.event?.headers['content-type']).toBe('application/json');
    expect(res.event?.headers.cookie).toBeUndefined();
    expect(res.event?.requestContext.authorizer).toBeUndefined();
    expect(res.status).toBe(201);
    expect(res.headers.get('x-test')).toBe('yes');
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(res.text).toBe('{"ok":true}');
  });

  it('base64-encodes non-text bodies (forms, uploads) like API Gateway', async () => {
    behaviour = async () => ({ statusCode: 200, body: 'ok' });

    const res = await call('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'CallSid=CA1&From=%2B1555',
    });

    expect(res.event?.isBase64Encoded).toBe(true);
    expect(Buffer.from(res.event?.body ?? '', 'base64').toString()).toBe('CallSid=CA1&From=%2B1555');
  });

  it('puts verified claims, as strings, in requestContext.authorizer.jwt', async () => {
    behaviour = async () => ({ statusCode: 200, body: '{}' });
    const token = await new SignJWT({ sub: 'user-1', client_id: clientId, auth_time: 1700000000 })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(issuer)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(signingKey);

    const res = await call('/api/me', { headers: { authorization: `Bearer ${token}` } });

    expect(res.status).toBe(200);
    expect(res.event?.requestContext.authorizer.jwt.claims).toMatchObject({
      sub: 'user-1',
      client_id: clientId,
      auth_time: '1700000000',
    });
  });

  it("sends a greedy route's event as API Gateway does: its route key, the rest of the path decoded in {proxy}", async () => {
    behaviour = async () => ({ statusCode: 200, body: '{}' });
    const token = await new SignJWT({ sub: 'user-1', client_id: clientId })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(issuer)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(signingKey);

    const profile = await call('/api/user/profile', { method: 'PUT', headers: { authorization: `Bearer ${token}` } });
    const unknown = await call('/api/user/a%20b/c', { headers: { authorization: `Bearer ${token}` } });
    const anonymous = await call('/api/user/profile');

    expect(profile.event).toMatchObject({ routeKey: 'ANY /api/user/{proxy+}', rawPath: '/api/user/profile', pathParameters: { proxy: 'profile' }, requestContext: { routeKey: 'ANY /api/user/{proxy+}', http: { method: 'PUT' } } });
    // A path no manifest route has still reaches the function behind the greedy route (it answers 404).
    expect(unknown.event).toMatchObject({ routeKey: 'ANY /api/user/{proxy+}', pathParameters: { proxy: 'a b/c' } });
    // The greedy route keeps its routes' JWT authorizer.
    expect([anonymous.status, anonymous.event]).toEqual([401, undefined]);
  });

  it('answers 401 without calling the handler when the token is missing', async () => {
    const res = await call('/api/me');

    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toEqual({ message: 'Unauthorized' });
    expect(res.event).toBeUndefined();
  });

  it('infers a 200 JSON response when the handler returns no statusCode', async () => {
    behaviour = async () => ({ hello: 'world' });

    const res = await call('/api/login', { method: 'POST' });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(res.text)).toEqual({ hello: 'world' });
  });

  it('hides a handler crash behind a bare 500', async () => {
    behaviour = async () => {
      throw new Error('secret internals');
    };

    const res = await call('/api/login', { method: 'POST' });

    expect(res.status).toBe(500);
    expect(JSON.parse(res.text)).toEqual({ message: 'Internal Server Error' });
  });

  it('answers 503 when the handler runs past the integration timeout', async () => {
    behaviour = () => new Promise((resolve) => setTimeout(() => resolve({ statusCode: 200 }), 1000));

    const res = await call('/api/login', { method: 'POST' });

    expect(res.status).toBe(503);
    expect(JSON.parse(res.text)).toEqual({ message: 'Service Unavailable' });
  });

  it('serves /config.json and 404s non-API paths when no frontend is configured', async () => {
    const config = await call('/config.json');
    const page = await call('/dashboard');

    expect(JSON.parse(config.text)).toEqual({ googleClientId: 'g-client' });
    expect(page.status).toBe(404);
  });

  it("puts the connection's address in CloudFront-Viewer-Address, replacing one the client sent (as CloudFront does)", async () => {
    behaviour = async () => ({ statusCode: 204 });

    const res = await call('/api/login', { method: 'POST', headers: { 'content-type': 'application/json', 'cloudfront-viewer-address': '203.0.113.9:1234' }, body: '{}' });

    expect(res.event?.headers['cloudfront-viewer-address']).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it('survives a client that stops half way through its body (aborted upload), and keeps serving', async () => {
    const { port } = new URL(gateway.url);
    await new Promise<void>((resolve) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/api/login', headers: { 'content-type': 'multipart/form-data; boundary=zz', 'content-length': '100000' } });
      req.on('error', () => resolve());
      req.write('--zz\r\nContent-Disposition: form-data; name="x"; filename="a.png"\r\n\r\nxx');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
    await new Promise((r) => setTimeout(r, 50));

    expect((await call('/config.json')).status).toBe(200);
  });

  it('answers 400 to a request target no URL can hold (it was a 500), and keeps serving', async () => {
    const { port } = new URL(gateway.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '//host:99999/api/login' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('{}');
    });

    expect(status).toBe(400);
    expect((await call('/config.json')).status).toBe(200);
  });
});

describe('route matching', () => {
  const match = routeMatcher([
    { method: 'GET', path: '/api/contacts/{id}', group: 'contacts', auth: 'user' },
    { method: 'GET', path: '/api/contacts/stats', group: 'contacts', auth: 'user' },
    { method: 'GET', path: '/api/files/{proxy+}', group: 'files', auth: 'user' },
  ]);

  it('extracts decoded path parameters and prefers literal routes', () => {
    expect(match('GET', '/api/contacts/a%20b')).toMatchObject({ routeKey: 'GET /api/contacts/{id}', pathParameters: { id: 'a b' } });
    expect(match('GET', '/api/contacts/stats')?.routeKey).toBe('GET /api/contacts/stats');
    expect(match('GET', '/api/files/x/y.pdf')?.pathParameters).toEqual({ proxy: 'x/y.pdf' });
    expect(match('POST', '/api/contacts/1')).toBeUndefined();
    expect(match('GET', '/api/contacts/1/extra')).toBeUndefined();
  });
});
