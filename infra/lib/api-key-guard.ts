/**
 * The CloudFront Function (viewer request, /api/* behaviour) that answers 403 routeNotAllowed
 * when an API key (`x-api-key`, or `Authorization: Bearer ak_…`) is sent to anything but a
 * 'userOrApiKey' route of the manifest. Without it, API Gateway's JWT authorizer would answer
 * a key on a 'user' route with 401, and public/webhook routes would run with it; the local
 * gateway gives the same 403 (functions/local/gateway.ts), generated from the same manifest.
 */
import { apiKeyMessages } from '../../functions/src/contract/api-keys.js';
import { compareSpecificity, parseTemplate, type TemplateSegment } from '../../functions/src/http/route-match.js';
import type { RouteDef } from '../../functions/src/routes.js';

/** /api/voice-conversations/{id} → ^/api/voice-conversations/[^/]+$ */
export function pathPattern(path: string): string {
  const body = path
    .split('/')
    .map((segment) => (/^\{[\w-]+\+\}$/.test(segment) ? '.+' : /^\{[\w-]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return `^${body}$`;
}

/** Whether a request for template `b` could also match template `a` (same length, each segment alike or a variable). */
function overlaps(a: readonly TemplateSegment[], b: readonly TemplateSegment[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((s, i) => s.kind !== 0 || b[i]!.kind !== 0 || s.text === b[i]!.text);
}

/**
 * The routes the guard decides by, in the order API Gateway picks them (the most specific first):
 * the 'userOrApiKey' routes (let through), and every other route that would take one of their
 * requests (refused): `GET /api/bookings/settings` is the owner's although `GET /api/bookings/{id}`
 * is the public API's. Only those, so the function stays far below CloudFront's 10 KB.
 */
function guardRoutes(routes: readonly RouteDef[]): [string, string, 0 | 1][] {
  const parsed = routes.map((r) => ({ method: r.method as string, segments: parseTemplate(r.path), route: r }));
  const open = parsed.filter((r) => r.route.auth === 'userOrApiKey');
  const shadowing = parsed.filter(
    (r) => r.route.auth !== 'userOrApiKey' && open.some((o) => o.method === r.method && overlaps(o.segments, r.segments) && compareSpecificity(r, o) < 0),
  );
  return [...open, ...shadowing]
    .sort((a, b) => compareSpecificity(a, b))
    .map((r) => [r.method, pathPattern(r.route.path), r.route.auth === 'userOrApiKey' ? 1 : 0]);
}

/** CloudFront Functions JavaScript runtime 2.0 source, kept to plain ES5 syntax. */
export function apiKeyGuardCode(routes: readonly RouteDef[]): string {
  const allowed = guardRoutes(routes);
  const body = JSON.stringify({ success: false, message: apiKeyMessages.routeNotAllowed });
  return `var ALLOWED = ${JSON.stringify(allowed)}.map(function (r) { return [r[0], new RegExp(r[1]), r[2]]; });
var BODY = ${JSON.stringify(body)};
function header(request, name) {
  var h = request.headers[name];
  return h && typeof h.value === 'string' ? h.value : '';
}
function handler(event) {
  var request = event.request;
  var hasKey = header(request, 'x-api-key').trim() !== '' || /^Bearer\\s+ak_/i.test(header(request, 'authorization'));
  if (!hasKey) return request;
  // The first route that matches is the one API Gateway would run: a key goes on only to the public API's.
  for (var i = 0; i < ALLOWED.length; i++) {
    if (ALLOWED[i][0] === request.method && ALLOWED[i][1].test(request.uri)) {
      if (ALLOWED[i][2] === 1) return request;
      break;
    }
  }
  return {
    statusCode: 403,
    statusDescription: 'Forbidden',
    headers: { 'content-type': { value: 'application/json' }, 'cache-control': { value: 'no-store' } },
    body: { encoding: 'text', data: BODY },
  };
}`;
}
