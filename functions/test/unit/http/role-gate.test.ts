/**
 * The role gate of the HTTP layer (issue 32, http/handler.ts): below the route's declared role the
 * answer is 403 teamMessages.forbidden before anything runs (the route, the 402 subscription
 * check, any table request); an API key acts as an admin; the route's activity entry is written
 * once, after a success only.
 *
 * The table is a loopback server speaking DynamoDB's JSON protocol that records each request, so
 * the real subscription gate and activity log run and every request they make is seen. Runs in
 * the unit-isolated project: it points DYNAMODB_ENDPOINT at that server before the app's client
 * exists (a module-level once()).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_CLAIMS, teamMessages } from '../../../src/contract/team.js';
import { subscriptionRequiredMessage } from '../../../src/domain/billing/messages.js';
import type { HttpEvent, HttpResult, RouteFn, RouteTable } from '../../../src/http/handler.js';

const OWNER = 'a1b2c3d4-0000-4000-8000-000000000001';
const LUCIA = 'a1b2c3d4-0000-4000-8000-000000000002';

let server: Server;
const seen: { target: string; body: Record<string, unknown> }[] = [];
let subscribed = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target']).replace('DynamoDB_20120810.', '');
      seen.push({ target, body: JSON.parse(body) as Record<string, unknown> });
      const reply = target === 'GetItem' && subscribed ? { Item: { status: { S: 'active' } } } : {};
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.AWS_ACCESS_KEY_ID = 'AKIDTEST';
  process.env.AWS_SECRET_ACCESS_KEY = 'secret';
  process.env.TABLE_NAME = 'agentdesk';
  (await import('../../../src/config.js')).resetConfig();
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  subscribed = false;
  ran.length = 0;
});

const ran: string[] = [];
const route =
  (name: string, result: Awaited<ReturnType<RouteFn>> = { data: { ok: true } }): RouteFn =>
  async (req) => {
    ran.push(`${name} by ${req.memberId()} in ${req.userId()} as ${req.role()}`);
    return result;
  };

const table: RouteTable = {
  'GET /api/team/activity': route('activity'), // admin, no subscription, no activity entry
  'POST /api/agents': route('create agent', { status: 201, data: { _id: 'ag-1' } }), // admin, subscription, agent.created
  'POST /api/contacts': route('create contact', { status: 400, message: 'Name is required' }), // agent, contact.created, refused by the route
  'POST /api/agents/chat': route('chat'), // userOrApiKey, admin, subscription
  'POST /api/subscription/cancel': route('cancel'), // owner
};

type Caller = { sub: string; account?: string; role?: string } | { apiKey: string };
const event = (routeKey: string, caller: Caller): HttpEvent => {
  const [method, path] = routeKey.split(' ');
  const authorizer =
    'apiKey' in caller
      ? { lambda: { authType: 'apiKey', sub: caller.apiKey, keyId: 'key-1', keyHash: 'h' } }
      : routeKey === 'POST /api/agents/chat'
        ? { lambda: { authType: 'user', sub: caller.sub, groups: '', account: caller.account ?? '', role: caller.role ?? '' } }
        : { jwt: { claims: { sub: caller.sub, ...(caller.account ? { [ACCOUNT_CLAIMS.account]: caller.account, [ACCOUNT_CLAIMS.role]: caller.role } : {}) }, scopes: [] } };
  return { routeKey, rawPath: path, rawQueryString: '', headers: {}, body: '{}', isBase64Encoded: false, requestContext: { http: { method, sourceIp: '' }, authorizer } } as unknown as HttpEvent;
};

async function call(routeKey: string, caller: Caller): Promise<{ status: number; body: Record<string, unknown> }> {
  const { httpGroup } = await import('../../../src/http/handler.js');
  const { recordRouteActivity } = await import('../../../src/composition/activity.js');
  const handler = httpGroup(table, { apiKeys: async () => undefined, activity: recordRouteActivity });
  const res = (await handler(event(routeKey, caller), { functionName: 'test', awsRequestId: 'r' } as Context)) as HttpResult & { statusCode: number; body: string };
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
}

const agent = { sub: LUCIA, account: OWNER, role: 'agent' };
const admin = { sub: LUCIA, account: OWNER, role: 'admin' };

describe('the role gate (http/handler.ts)', () => {
  it('below the role: 403 with the team message, the route not run, no table request', async () => {
    const res = await call('GET /api/team/activity', agent);
    expect(res).toEqual({ status: 403, body: { success: false, message: teamMessages.forbidden } });
    expect(ran).toEqual([]);
    expect(seen).toEqual([]);
  });

  it('before the subscription gate: an agent on a paid admin route gets 403, not 402, and nothing is read', async () => {
    const res = await call('POST /api/agents', agent);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(teamMessages.forbidden);
    expect(seen).toEqual([]);
    // At the role, the subscription gate then answers as before.
    const unpaid = await call('POST /api/agents', admin);
    expect(unpaid).toMatchObject({ status: 402, body: { message: subscriptionRequiredMessage } });
    expect(seen.map((s) => s.target)).toEqual(['GetItem']);
    expect(seen[0]!.body.Key).toEqual({ pk: { S: `USER#${OWNER}` }, sk: { S: 'SUBSCRIPTION' } });
    expect(ran).toEqual([]);
  });

  it('at the role: the route runs for the account, as the person; the activity entry is written once, after it succeeded', async () => {
    subscribed = true;
    const res = await call('POST /api/agents', admin);
    expect(res.status).toBe(201);
    expect(ran).toEqual([`create agent by ${LUCIA} in ${OWNER} as admin`]);
    const puts = seen.filter((s) => s.target === 'PutItem');
    expect(puts).toHaveLength(1);
    const item = puts[0]!.body.Item as Record<string, { S?: string; M?: Record<string, { S: string }> }>;
    expect(item.pk?.S).toBe(`USER#${OWNER}`);
    expect(item.sk?.S).toMatch(/^ACTIVITY#/);
    expect(item.action?.S).toBe('agent.created');
    expect(item.actor?.M).toEqual({ kind: { S: 'member' }, id: { S: LUCIA } });
  });

  it('a route that refuses (4xx) logs nothing', async () => {
    const res = await call('POST /api/contacts', agent);
    expect(res.status).toBe(400);
    expect(ran).toHaveLength(1);
    expect(seen.filter((s) => s.target === 'PutItem')).toEqual([]);
  });

  it('a token without account claims is its own account’s owner: every role passes', async () => {
    const res = await call('POST /api/subscription/cancel', { sub: OWNER });
    expect(res.status).toBe(200);
    expect(ran).toEqual([`cancel by ${OWNER} in ${OWNER} as owner`]);
  });

  it('malformed claims: 401, nothing run', async () => {
    const res = await call('GET /api/team/activity', { sub: LUCIA, account: OWNER, role: 'root' });
    expect(res.status).toBe(401);
    expect(ran).toEqual([]);
    expect(seen).toEqual([]);
  });

  it('an API key acts as an admin: admin routes run, owner routes are refused', async () => {
    subscribed = true;
    expect((await call('POST /api/agents/chat', { apiKey: OWNER })).status).toBe(200);
    expect(ran).toEqual([`chat by ${OWNER} in ${OWNER} as admin`]);
    ran.length = 0;
    const owner = await call('POST /api/subscription/cancel', { apiKey: OWNER });
    expect(owner).toMatchObject({ status: 403, body: { message: teamMessages.forbidden } });
    expect(ran).toEqual([]);
  });

  it('the API authorizer’s context carries the claims: an agent’s token on a userOrApiKey admin route is refused', async () => {
    const res = await call('POST /api/agents/chat', agent);
    expect(res.status).toBe(403);
    expect(seen).toEqual([]);
  });
});
