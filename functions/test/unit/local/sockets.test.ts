import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiGatewayManagementApiClient, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import WebSocket from 'ws';
import { startGateway, type Gateway } from '../../../local/gateway.js';
import { HandlerNotFoundError } from '../../../local/handlers.js';
import { handler as echoHandler, postErrors, received } from '../../support/echo-socket.js';

let gateway: Gateway;
let idleGateway: Gateway;
let shortLivedGateway: Gateway;
let wsBase: string;

const sdk = (base: string) =>
  new ApiGatewayManagementApiClient({ endpoint: `${base}/_ws/echo`, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

beforeAll(async () => {
  const common = {
    port: 0,
    authorizer: { issuer: 'http://127.0.0.1:1/pool', audience: ['x'], keys: async () => Promise.reject(new Error('unused')) } as never,
    loadGroup: async () => Promise.reject(new Error('no HTTP routes here')),
    publicConfig: {},
    socketApis: { echo: { timeout: 5 }, missing: { timeout: 5 } },
    loadSocketApi: async (name: string) => {
      if (name === 'echo') return echoHandler as never;
      throw new HandlerNotFoundError(`Handler module for ${name} does not exist yet`);
    },
    log: () => undefined,
  };
  gateway = await startGateway(common);
  idleGateway = await startGateway({ ...common, socketLimits: { idleTimeoutMs: 300 } });
  shortLivedGateway = await startGateway({ ...common, socketLimits: { maxConnectionMs: 500 } });
  wsBase = gateway.url.replace(/^http/, 'ws');
});

afterAll(async () => {
  await gateway.stop();
  await idleGateway.stop();
  await shortLivedGateway.stop();
});

beforeEach(() => {
  received.length = 0;
  postErrors.length = 0;
});

/** The events of one connection (earlier tests' late $disconnects stay out). */
const eventsOf = (connectionId: string) => received.filter((e) => e.requestContext.connectionId === connectionId);

/** An open connection that queues what it receives. */
async function open(base: string, headers: Record<string, string> = {}) {
  const tag = randomUUID();
  const ws = new WebSocket(`${base}${base.includes('?') ? '&' : '?'}tag=${tag}`, { headers });
  const frames: unknown[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data) => {
    frames.push(JSON.parse(data.toString()));
    waiters.splice(0).forEach((w) => w());
  });
  const closed = new Promise<{ code: number }>((resolve) => ws.on('close', (code) => resolve({ code })));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = async (count: number, timeoutMs = 3000) => {
    const deadline = Date.now() + timeoutMs;
    while (frames.length < count && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return frames.slice(0, count);
  };
  const send = (data: unknown) => ws.send(JSON.stringify(data));
  const connectionId = received.find((e) => e.queryStringParameters?.tag === tag)!.requestContext.connectionId;
  return { ws, frames, next, send, closed, connectionId, events: () => eventsOf(connectionId) };
}

/** The status a refused handshake answered. */
function handshakeStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.on('open', () => reject(new Error('the connection was accepted')));
    ws.on('error', () => undefined);
  });
}

const waitFor = async (check: () => boolean, timeoutMs = 3000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return check();
};

describe('local gateway WebSocket APIs', () => {
  it('runs $connect with the handshake as API Gateway passes it, then echoes a frame back through PostToConnection', async () => {
    const c = await open(`${wsBase}/_ws/echo?user=u%201&call=c1&call=c2`, { 'X-Twilio-Signature': 'sig=' });

    c.send({ action: 'echo', text: 'hola' });

    expect(await c.next(1)).toEqual([{ echo: 'hola' }]);
    const [connect, message] = c.events();
    const port = new URL(gateway.url).port;
    expect(connect).toMatchObject({
      headers: { 'X-Twilio-Signature': 'sig=', Host: `127.0.0.1:${port}`, 'X-Forwarded-Proto': 'http' },
      multiValueHeaders: { 'X-Twilio-Signature': ['sig='] },
      queryStringParameters: { user: 'u 1', call: 'c2', tag: expect.any(String) },
      multiValueQueryStringParameters: { call: ['c1', 'c2'] },
      requestContext: { routeKey: '$connect', eventType: 'CONNECT', messageDirection: 'IN', stage: '_ws/echo', apiId: 'echo', domainName: `127.0.0.1:${port}` },
      isBase64Encoded: false,
    });
    expect(connect!.requestContext.connectionId).toMatch(/^[A-Za-z0-9+/]{14}==$/);
    expect(connect!.requestContext).toEqual(expect.objectContaining({ requestId: expect.any(String), connectedAt: expect.any(Number), requestTimeEpoch: expect.any(Number) }));
    expect(connect!.requestContext.messageId).toBeUndefined();
    expect(message).toMatchObject({
      body: JSON.stringify({ action: 'echo', text: 'hola' }),
      isBase64Encoded: false,
      requestContext: { routeKey: '$default', eventType: 'MESSAGE', connectionId: connect!.requestContext.connectionId, messageId: expect.any(String) },
    });
    expect(message!.headers).toBeUndefined();
    c.ws.close();
  });

  it('refuses the handshake with the status $connect answered, and runs nothing else', async () => {
    const status = await handshakeStatus(`${wsBase}/_ws/echo?refuse=403`);

    expect(status).toBe(403);
    await new Promise((r) => setTimeout(r, 100));
    const connectionId = received.find((e) => e.queryStringParameters?.refuse === '403')!.requestContext.connectionId;
    expect(eventsOf(connectionId).map((e) => e.requestContext.routeKey)).toEqual(['$connect']);
  });

  it('answers 502 when the function does not exist yet, 404 for an API that is not served', async () => {
    expect(await handshakeStatus(`${wsBase}/_ws/missing`)).toBe(502);
    expect(await handshakeStatus(`${wsBase}/_ws/nope`)).toBe(404);
  });

  it('runs frames concurrently: a slow frame does not hold back the next one', async () => {
    const c = await open(`${wsBase}/_ws/echo`);

    c.send({ action: 'echo', text: 'slow', delayMs: 600 });
    c.send({ action: 'echo', text: 'fast' });

    expect(await c.next(2)).toEqual([{ echo: 'fast' }, { echo: 'slow' }]);
    c.ws.close();
  });

  it('runs $disconnect when the client closes; posting to the connection then fails with GoneException (410)', async () => {
    const c = await open(`${wsBase}/_ws/echo`);
    c.send({ action: 'echo', text: 'x' });
    await c.next(1);
    const { connectionId } = c;

    c.ws.close(1000, 'bye');

    expect(await waitFor(() => postErrors.some((e) => e.connectionId === connectionId))).toBe(true);
    const disconnect = c.events().find((e) => e.requestContext.routeKey === '$disconnect');
    expect(disconnect?.requestContext).toMatchObject({ eventType: 'DISCONNECT', connectionId, disconnectStatusCode: 1000, disconnectReason: 'bye' });
    expect(postErrors.filter((e) => e.connectionId === connectionId)).toEqual([{ connectionId, name: 'GoneException', status: 410 }]);
    const error = await sdk(gateway.url)
      .send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: 'late' }))
      .catch((e: Error) => e);
    expect((error as Error).name).toBe('GoneException');
  });

  it('DeleteConnection closes the connection; GetConnection answers its times and identity', async () => {
    const c = await open(`${wsBase}/_ws/echo`);

    c.send({ action: 'get' });
    const [info] = (await c.next(1)) as { connectedAt: string; lastActiveAt: string; sourceIp: string }[];
    c.send({ action: 'close' });
    const { code } = await c.closed;

    expect(info!.sourceIp).toBe('127.0.0.1');
    expect(Date.parse(info!.lastActiveAt)).toBeGreaterThanOrEqual(Date.parse(info!.connectedAt));
    expect(code).toBe(1000);
    expect(await waitFor(() => c.events().some((e) => e.requestContext.routeKey === '$disconnect'))).toBe(true);
  });

  it('sends API Gateway\'s "Internal server error" frame when an invocation fails; the connection stays open', async () => {
    const c = await open(`${wsBase}/_ws/echo`);

    c.send({ action: 'throw' });
    const [error] = (await c.next(1)) as Record<string, string>[];
    c.send({ action: 'echo', text: 'still here' });

    expect(error).toMatchObject({ message: 'Internal server error', connectionId: c.connectionId, requestId: expect.any(String) });
    expect((await c.next(2))[1]).toEqual({ echo: 'still here' });
    c.ws.close();
  });

  it('closes with 1009 on a message over 128 KB, and refuses such a post with PayloadTooLargeException', async () => {
    const c = await open(`${wsBase}/_ws/echo`);
    const { connectionId } = c;
    const big = 'x'.repeat(128 * 1024 + 1);

    const tooBig = await sdk(gateway.url)
      .send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: big }))
      .catch((e: Error) => e);
    c.ws.send(big);

    expect((tooBig as Error).name).toBe('PayloadTooLargeException');
    expect((await c.closed).code).toBe(1009);
    expect(c.events().filter((e) => e.requestContext.routeKey === '$default')).toEqual([]);
  });

  it('closes an idle connection (1001) after the idle timeout', async () => {
    const c = await open(`${idleGateway.url.replace(/^http/, 'ws')}/_ws/echo`);

    const { code } = await c.closed;

    expect(code).toBe(1001);
  });

  it('closes a connection (1001) at its maximum lifetime even while it is busy', async () => {
    const c = await open(`${shortLivedGateway.url.replace(/^http/, 'ws')}/_ws/echo`);
    const opened = Date.now();
    const busy = setInterval(() => c.send({ action: 'echo', text: 'ping' }), 100);

    const { code } = await c.closed;
    clearInterval(busy);

    expect(code).toBe(1001);
    expect(Date.now() - opened).toBeGreaterThanOrEqual(450);
    expect(c.frames.length).toBeGreaterThan(0);
  });
});
