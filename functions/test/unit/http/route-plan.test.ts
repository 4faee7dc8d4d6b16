/**
 * The route plan (src/route-plan.ts): the API Gateway routes derived from the route manifest,
 * greedy `ANY /api/<prefix>/{proxy+}` routes where every route under a prefix is served alike,
 * explicit ones where not; and the HTTP wrapper's resolution of a shared route's event to its
 * manifest route. The proof that nothing changed for a request: every request a manifest route
 * matches (ids that collide with every literal of the manifest included) reaches, through the
 * plan's API Gateway route and the wrapper, the same manifest route, function and authorizer as
 * with one API Gateway route per manifest route, and a request no manifest route matches is still
 * refused — under several readings of API Gateway's "most specific route" rule.
 */
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { matchApiRoute, matchRoute } from '../../../local/gateway.js';
import { httpGroup, sharedRouteResolvers, type HttpEvent, type HttpResult, type RouteTable } from '../../../src/http/handler.js';
import { compareSpecificity, isGreedy, parseTemplate, pathSegments, templateRouter, type TemplateSegment } from '../../../src/http/route-match.js';
import type { WebhookStep } from '../../../src/http/webhook-verification.js';
import { routeKeyOf, routePlan, sharedRoutes, throttleClassOf, type ApiRoute } from '../../../src/route-plan.js';
import { routes, type RouteDef, type RouteGroupName } from '../../../src/routes.js';

const plan = routePlan();
const manifest = routes as readonly RouteDef[];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
const context = { functionName: 'test', awsRequestId: 'r' } as Context;

/** Request paths for a route: each {variable} as a plain id, percent-encoded ids (an encoded "/" too) and every literal the manifest has at that segment. */
function probesOf(path: string, literals: Map<number, Set<string>>): string[] {
  let paths = [''];
  pathSegments(path).forEach((segment, i) => {
    const values = segment.startsWith('{') ? ['01J0000000000000000000000X', 'a%2Fb', '%C3%B1and%C3%BA%20x', '%ZZ', ...(literals.get(i) ?? [])] : [segment];
    paths = paths.flatMap((p) => values.map((v) => `${p}/${v}`));
  });
  return paths;
}

/** Every request path worth asking about: the routes' own, one segment more or fewer, unknown tails. */
function requestPaths(list: readonly RouteDef[]): string[] {
  const literals = new Map<number, Set<string>>();
  for (const r of list) pathSegments(r.path).forEach((s, i) => !s.startsWith('{') && literals.set(i, new Set([...(literals.get(i) ?? []), s])));
  const paths = new Set<string>();
  for (const r of list) {
    for (const p of probesOf(r.path, literals)) {
      paths.add(p);
      paths.add(`${p}/zz-unknown`);
      paths.add(p.split('/').slice(0, -1).join('/'));
    }
  }
  for (const r of plan) if (r.greedy) for (const tail of ['zz', 'zz/yy', 'zz/yy/xx/ww']) paths.add(r.path.replace('{proxy+}', tail));
  return [...paths].filter((p) => p.startsWith('/api'));
}

type Compare = typeof compareSpecificity;
type Ranked = Parameters<Compare>[0];
const variables = (s: readonly TemplateSegment[]) => s.filter((x) => x.kind !== 0).length;
const greedyLast = (a: Ranked, b: Ranked) => Number(isGreedy(a.segments)) - Number(isGreedy(b.segments));
const anyLast = (a: Ranked, b: Ranked) => Number(a.method === 'ANY') - Number(b.method === 'ANY');
/** Readings of "most specific": segment by segment (ours); the method before the path; the fewest variables. */
const READINGS: Record<string, Compare> = {
  'segment by segment, then the method': compareSpecificity,
  'the method, then segment by segment': (a, b) => greedyLast(a, b) || anyLast(a, b) || compareSpecificity(a, b),
  'the fewest variables, the longest greedy prefix, then the method': (a, b) =>
    greedyLast(a, b) || variables(a.segments) - variables(b.segments) || b.segments.length - a.segments.length || anyLast(a, b),
};

const tables = new Map<string, RouteTable>();
const tableOf = (group: string): RouteTable => {
  if (!tables.has(group)) tables.set(group, Object.fromEntries(manifest.filter((r) => r.group === group).map((r) => [routeKeyOf(r), async () => ({})])));
  return tables.get(group)!;
};
const resolversByGroup = new Map<string, ReturnType<typeof sharedRouteResolvers>>();
const resolversOf = (group: string) => {
  if (!resolversByGroup.has(group)) resolversByGroup.set(group, sharedRouteResolvers(tableOf(group)));
  return resolversByGroup.get(group)!;
};

/** What the function of the chosen API Gateway route runs for a request: the manifest route key (undefined: its 404). */
function resolved(route: ApiRoute, method: string, rawPath: string, pathParameters: Record<string, string>): string | undefined {
  const event = { routeKey: route.key, rawPath, pathParameters, requestContext: { http: { method }, routeKey: route.key } } as unknown as HttpEvent;
  const resolve = resolversOf(route.group).get(route.key);
  const out = resolve ? resolve(event) : event;
  return out && out.routeKey in tableOf(route.group) ? out.routeKey : undefined;
}

describe('the route plan', () => {
  it('serves every manifest route by exactly one API Gateway route, of the same function, auth kind and throttle class', () => {
    for (const r of manifest) {
      const servers = plan.filter((a) => a.serves.includes(routeKeyOf(r)));
      expect(servers, routeKeyOf(r)).toHaveLength(1);
      expect(servers[0], routeKeyOf(r)).toMatchObject({ group: r.group, auth: r.auth, throttle: throttleClassOf(r) });
    }
    expect(plan.flatMap((a) => a.serves).sort()).toEqual(manifest.map(routeKeyOf).sort());
    expect(new Set(plan.map((a) => a.key)).size).toBe(plan.length);
  });

  it('plans greedy routes under /api/<prefix> only, for two or more routes of one function and auth kind, and explicit ones for one path', () => {
    for (const a of plan) {
      const served = a.serves.map((key) => manifest.find((r) => routeKeyOf(r) === key)!);
      expect(new Set(served.map((r) => `${r.group} ${r.auth}`)).size, a.key).toBe(1);
      if (a.greedy) {
        expect(a.path, a.key).toMatch(/^\/api\/[^{}]+\/\{proxy\+\}$/);
        expect(served.length, a.key).toBeGreaterThanOrEqual(2);
        for (const r of served) expect(r.path.startsWith(a.path.replace('{proxy+}', '')), `${a.key} serves ${r.path}`).toBe(true);
      } else {
        expect(served.every((r) => r.path === a.path), a.key).toBe(true);
        expect(a.method, a.key).toBe(served.length === 1 ? served[0]!.method : 'ANY');
      }
    }
    expect(plan.filter((a) => a.greedy).length).toBeGreaterThan(5);
  });

  it("keeps the HTTP API far from API Gateway's 300 routes and the stack's resources low: at most half a route per manifest route", () => {
    expect(plan.length).toBeLessThanOrEqual(Math.ceil(manifest.length / 2));
    expect(plan.length).toBeLessThan(300);
  });

  it('gives each greedy route the one method its routes share, so other methods stay API Gateway 404s (webhooks: no invocation)', () => {
    expect(plan.find((a) => a.serves.includes('POST /api/webhooks/twilio/{userId}/voice'))?.key).toBe('POST /api/webhooks/twilio/{proxy+}');
  });

  // Computed once: tens of thousands of requests. Mismatches are collected and compared once, so a
  // failure still names every request that went wrong, without an expect() per request.
  const probes = requestPaths(manifest);

  for (const [reading, compare] of Object.entries(READINGS)) {
    it(`routes every request as one route per manifest entry did (API Gateway reading: ${reading})`, () => {
      const today = templateRouter(manifest, compare);
      const planned = templateRouter(plan, compare);
      const mismatches: string[] = [];
      let checked = 0;
      for (const path of probes) {
        const segments = pathSegments(path);
        for (const method of METHODS) {
          const before = today(method, segments);
          const after = planned(method, segments);
          const served = after && resolved(after.route, method, path, after.params);
          const label = `${method} ${path} (API Gateway route ${after?.route.key ?? 'none'})`;
          const expected = before ? routeKeyOf(before.route) : undefined;
          if (served !== expected) mismatches.push(`${label}: serves ${served ?? 'nothing'}, was ${expected ?? 'nothing'}`);
          if (before && after) {
            const was = [before.route.auth, before.route.group, throttleClassOf(before.route)].join(' ');
            const now = [after.route.auth, after.route.group, after.route.throttle].join(' ');
            if (was !== now) mismatches.push(`${label}: auth/group/throttle ${now}, was ${was}`);
          }
          checked++;
        }
      }
      expect(mismatches).toEqual([]);
      expect(checked).toBeGreaterThan(10_000);
    });
  }

  it('the local gateway serves the same plan: its events carry the API Gateway route key, and resolve to the manifest route it matched before', () => {
    const mismatches: string[] = [];
    for (const path of probes) {
      for (const method of METHODS) {
        const before = matchRoute(method, path);
        const api = matchApiRoute(method, path);
        const route = api && plan.find((a) => a.key === api.routeKey);
        if ((route === undefined) !== (api === undefined)) mismatches.push(`${method} ${path}: route key ${api?.routeKey} not in the plan`);
        const served = route && resolved(route, method, path, api.pathParameters ?? {});
        if (served !== before?.routeKey) mismatches.push(`${method} ${path}: serves ${served ?? 'nothing'}, was ${before?.routeKey ?? 'nothing'}`);
        if (before && api && (api.group !== before.group || api.auth !== before.auth)) mismatches.push(`${method} ${path}: ${api.group}/${api.auth}, was ${before.group}/${before.auth}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("never lets a shared route reach a route of its function behind another authorizer (or another API Gateway route): the function answers 404", () => {
    let crossings = 0;
    for (const a of plan.filter((x) => x.serves.length > 1)) {
      for (const r of manifest.filter((m) => m.group === a.group && !a.serves.includes(routeKeyOf(m)))) {
        const path = r.path.replace(/\{[\w-]+\}/g, 'v1');
        const segments = pathSegments(path);
        const params = a.greedy
          ? path.startsWith(a.path.replace('{proxy+}', '')) && { proxy: path.slice(a.path.length - '{proxy+}'.length) }
          : (parseTemplate(a.path).every((s, i) => s.kind !== 0 || s.text === segments[i]) && segments.length === parseTemplate(a.path).length && {});
        if (!params) continue;
        crossings++;
        expect(resolved(a, r.method, path, params as Record<string, string>), `${a.key} must not run ${routeKeyOf(r)}`).toBeUndefined();
      }
    }
    // e.g. the conversations function's user greedy route and its API-key route POST /api/conversations/{id}/messages.
    expect(crossings).toBeGreaterThan(0);
  });
});

describe('the route plan of other manifests (derived, so new routes fit by themselves)', () => {
  const r = (method: RouteDef['method'], path: string, group: string, auth: RouteDef['auth'] = 'user'): RouteDef =>
    ({ method, path, group: group as RouteGroupName, auth });
  const keys = (list: RouteDef[]) => routePlan(list).map((a) => `${a.key} ${a.group} ${a.auth}`);

  it('plans a new prefix as one greedy route plus its base path, with no list to edit', () => {
    const bookings = [r('GET', '/api/bookings', 'bookings'), r('POST', '/api/bookings', 'bookings'), r('GET', '/api/bookings/{id}', 'bookings'), r('PUT', '/api/bookings/{id}', 'bookings'), r('DELETE', '/api/bookings/{id}', 'bookings'), r('POST', '/api/bookings/{id}/confirm', 'bookings')];
    expect(keys(bookings)).toEqual(['ANY /api/bookings bookings user', 'ANY /api/bookings/{proxy+} bookings user']);
  });

  it('keeps a public route under a user prefix explicit (its own throttle class, no authorizer) next to the greedy one', () => {
    const list = [r('GET', '/api/team/{id}', 'team'), r('PUT', '/api/team/{id}', 'team'), r('POST', '/api/team/invites/accept', 'team', 'public'), r('DELETE', '/api/team/{id}', 'team')];
    const planned = routePlan(list);
    expect(keys(list)).toEqual(['ANY /api/team/{proxy+} team user', 'POST /api/team/invites/accept team public']);
    expect(planned[1]?.throttle).toBe('public');
  });

  it('keeps explicit a route a more specific explicit route could not always beat, and both of an ambiguous pair', () => {
    const list = [
      r('GET', '/api/x/{id}/report', 'x'),
      r('GET', '/api/x/{id}', 'x'),
      r('PUT', '/api/x/{id}', 'x'),
      r('GET', '/api/x/special/{id}', 'y'),
      r('GET', '/api/x/{id}/{part}', 'x'),
      r('GET', '/api/x/{id}/details', 'x'),
    ];
    const planned = routePlan(list);
    // special/{id} (y) and {id}/report (x) share GET /api/x/special/report with neither more specific everywhere.
    expect(planned.find((a) => a.serves.includes('GET /api/x/{id}/report'))?.greedy).toBe(false);
    expect(planned.find((a) => a.serves.includes('GET /api/x/special/{id}'))?.greedy).toBe(false);
    // {id}/{part} and {id}/details are behind one greedy route only if the router's choice matches API Gateway's: details is more specific everywhere.
    const greedy = planned.find((a) => a.greedy);
    expect(greedy?.serves).toEqual(expect.arrayContaining(['GET /api/x/{id}', 'PUT /api/x/{id}']));
  });

  it('plans nothing greedy when each prefix has one route of a kind', () => {
    const list = [r('GET', '/api/a/{id}', 'a'), r('GET', '/api/b/{id}', 'b'), r('POST', '/api/login', 'auth', 'public')];
    expect(routePlan(list).every((a) => !a.greedy && a.serves.length === 1)).toBe(true);
    expect(sharedRoutes(routePlan(list))).toEqual({});
  });
});

describe('the HTTP wrapper on a shared route', () => {
  const seen: { routeKey: string; params: Record<string, string>; eventRouteKey: string; contextRouteKey: string }[] = [];
  const record = async (req: Parameters<NonNullable<RouteTable['GET /api/me']>>[0]) => {
    seen.push({ routeKey: req.event.routeKey, params: req.params, eventRouteKey: req.event.requestContext.routeKey, contextRouteKey: req.event.requestContext.routeKey });
    return { data: { routeKey: req.event.routeKey, params: req.params } };
  };
  const claims = { sub: 'user-1' };
  /** As API Gateway sends it: a greedy route's {proxy} is the decoded rest of the raw path. */
  const event = (routeKey: string, method: string, rawPath: string, extra: Partial<HttpEvent> = {}): HttpEvent => {
    const prefix = routeKey.slice(routeKey.indexOf(' ') + 1).replace('{proxy+}', '');
    const pathParameters = routeKey.endsWith('{proxy+}') && rawPath.startsWith(prefix) ? { proxy: rawPath.slice(prefix.length).split('/').map(decodeURIComponent).join('/') } : undefined;
    return {
      version: '2.0',
      routeKey,
      rawPath,
      rawQueryString: '',
      headers: {},
      isBase64Encoded: false,
      ...(pathParameters ? { pathParameters } : {}),
      requestContext: { routeKey, http: { method, sourceIp: '' }, authorizer: { jwt: { claims, scopes: [] } } },
      ...extra,
    } as unknown as HttpEvent;
  };
  const body = (result: HttpResult) => JSON.parse(String(result.body)) as { success: boolean; message?: string; data?: unknown };
  const greedyOf = (key: string) => plan.find((a) => a.serves.includes(key))!.key;

  const savedReplies: RouteTable = {
    'GET /api/saved-replies': record,
    'POST /api/saved-replies': record,
    'GET /api/saved-replies/{id}': record,
    'PUT /api/saved-replies/{id}': record,
    'DELETE /api/saved-replies/{id}': record,
  };
  const handler = httpGroup(savedReplies);

  it("resolves a greedy route's event to its manifest route first: the route sees exactly that routeKey and pathParameters (decoded by API Gateway, no proxy)", async () => {
    const greedy = greedyOf('PUT /api/saved-replies/{id}');
    expect(greedy).toBe('ANY /api/saved-replies/{proxy+}');
    seen.length = 0;

    const result = await handler(event(greedy, 'PUT', '/api/saved-replies/r%201%C3%A9'), context);

    expect(result.statusCode).toBe(200);
    expect(seen).toEqual([{ routeKey: 'PUT /api/saved-replies/{id}', params: { id: 'r 1é' }, eventRouteKey: 'PUT /api/saved-replies/{id}', contextRouteKey: 'PUT /api/saved-replies/{id}' }]);
  });

  it('resolves an ANY route on one path by the method, with no pathParameters where the route has none', async () => {
    const any = greedyOf('POST /api/saved-replies');
    expect(any).toBe('ANY /api/saved-replies');
    seen.length = 0;

    await handler(event(any, 'POST', '/api/saved-replies'), context);

    expect(seen.map((s) => [s.routeKey, s.params])).toEqual([['POST /api/saved-replies', {}]]);
  });

  it('answers 404 (not 500) to a path or method under the greedy prefix that no manifest route of it matches, without running a route', async () => {
    seen.length = 0;
    const greedy = 'ANY /api/saved-replies/{proxy+}';

    const results = await Promise.all([
      handler(event(greedy, 'GET', '/api/saved-replies/r1/extra'), context),
      handler(event(greedy, 'POST', '/api/saved-replies/r1'), context),
      handler(event(greedy, 'PATCH', '/api/saved-replies/r1'), context),
      handler(event(greedy, 'GET', '/api/saved-replies/'), context),
      handler(event(greedy, 'GET', '/api/other/r1'), context),
      handler(event('ANY /api/saved-replies', 'DELETE', '/api/saved-replies'), context),
    ]);

    for (const result of results) {
      expect(result.statusCode).toBe(404);
      expect(body(result)).toEqual({ success: false, message: 'Not found' });
    }
    expect(seen).toEqual([]);
  });

  it('runs the webhook signature check declared for the resolved route, on its path parameters and raw body', async () => {
    const checked: { provider: string; params: unknown; body: string }[] = [];
    const step: WebhookStep = {
      providers: new Set(['twilio']),
      run: async (rule, ev, _headers, rawBody) => {
        checked.push({ provider: rule.provider, params: ev.pathParameters, body: rawBody.toString() });
        return rawBody.toString() === 'signed' ? { verified: { provider: 'twilio', payload: { userId: String(ev.pathParameters?.userId), params: {} } } } : { refused: { statusCode: 403, body: 'refused' } };
      },
    };
    const voice = Object.fromEntries(manifest.filter((r) => r.group === 'voice-webhook').map((r) => [routeKeyOf(r), async (req: Parameters<typeof record>[0]) => ({ data: { user: req.webhook('twilio').userId, routeKey: req.event.routeKey } })]));
    const webhookHandler = httpGroup(voice, { webhooks: step });
    const greedy = greedyOf('POST /api/webhooks/twilio/{userId}/voice/gather');
    const call = (text: string, rawPath = '/api/webhooks/twilio/U1/voice/gather') =>
      webhookHandler(event(greedy, 'POST', rawPath, { body: text, requestContext: { routeKey: greedy, http: { method: 'POST', sourceIp: '' } } } as Partial<HttpEvent>), context);

    const refused = await call('forged');
    const passed = await call('signed');
    // An encoded slash stays inside its segment, as the explicit route's {userId} had it.
    const slashed = await call('forged', '/api/webhooks/twilio/a%2Fb/voice');

    expect(refused).toEqual({ statusCode: 403, body: 'refused' });
    expect(slashed).toEqual({ statusCode: 403, body: 'refused' });
    expect(body(passed).data).toEqual({ user: 'U1', routeKey: 'POST /api/webhooks/twilio/{userId}/voice/gather' });
    expect(checked).toEqual([
      { provider: 'twilio', params: { userId: 'U1' }, body: 'forged' },
      { provider: 'twilio', params: { userId: 'U1' }, body: 'signed' },
      { provider: 'twilio', params: { userId: 'a/b' }, body: 'forged' },
    ]);
  });

  it("runs the API-key guard on an API-key route behind a shared route, after resolving it", async () => {
    const guarded: string[] = [];
    const contacts = Object.fromEntries(manifest.filter((r) => r.group === 'contacts').map((r) => [routeKeyOf(r), record]));
    const contactsHandler = httpGroup(contacts, { apiKeys: async (auth) => (guarded.push(auth.authType), undefined), activity: async () => undefined });
    const any = greedyOf('GET /api/contacts');
    const withKey = (method: string) =>
      event(any, method, '/api/contacts', { requestContext: { routeKey: any, http: { method, sourceIp: '' }, authorizer: { lambda: { authType: 'apiKey', sub: 'user-1', keyId: 'k', keyHash: 'h' } } } } as unknown as Partial<HttpEvent>);
    seen.length = 0;

    const listed = await contactsHandler(withKey('GET'), context);

    expect(listed.statusCode).toBe(200);
    expect(guarded).toEqual(['apiKey']);
    expect(seen.map((s) => s.routeKey)).toEqual(['GET /api/contacts']);
  });

  it('still serves an event whose routeKey is the manifest route itself (npm run invoke, the events/ files, tests)', async () => {
    seen.length = 0;

    await handler(event('GET /api/saved-replies/{id}', 'GET', '/api/saved-replies/r2', { pathParameters: { id: 'r2' } }), context);

    expect(seen.map((s) => [s.routeKey, s.params])).toEqual([['GET /api/saved-replies/{id}', { id: 'r2' }]]);
  });
});
