/**
 * The CloudFront Function (viewer request, /api/* behaviour) that answers 403 routeNotAllowed
 * when an API key (`x-api-key`, or `Authorization: Bearer ak_…`) is sent to anything but a
 * 'userOrApiKey' route of the manifest. Without it, API Gateway's JWT authorizer would answer
 * a key on a 'user' route with 401, and public/webhook routes would run with it; the local
 * gateway gives the same 403 (functions/local/gateway.ts), generated from the same manifest.
 */
import { apiKeyMessages } from '../../functions/src/contract/api-keys.js';
import type { RouteDef } from '../../functions/src/routes.js';

/** /api/voice-conversations/{id} → ^/api/voice-conversations/[^/]+$ */
export function pathPattern(path: string): string {
  const body = path
    .split('/')
    .map((segment) => (/^\{[\w-]+\+\}$/.test(segment) ? '.+' : /^\{[\w-]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return `^${body}$`;
}

/** CloudFront Functions JavaScript runtime 2.0 source, kept to plain ES5 syntax. */
export function apiKeyGuardCode(routes: readonly RouteDef[]): string {
  const allowed = routes.filter((r) => r.auth === 'userOrApiKey').map((r) => [r.method, pathPattern(r.path)]);
  const body = JSON.stringify({ success: false, message: apiKeyMessages.routeNotAllowed });
  return `var ALLOWED = ${JSON.stringify(allowed)}.map(function (r) { return [r[0], new RegExp(r[1])]; });
var BODY = ${JSON.stringify(body)};
function header(request, name) {
  var h = request.headers[name];
  return h && typeof h.value === 'string' ? h.value : '';
}
function handler(event) {
  var request = event.request;
  var hasKey = header(request, 'x-api-key').trim() !== '' || /^Bearer\\s+ak_/i.test(header(request, 'authorization'));
  if (!hasKey) return request;
  for (var i = 0; i < ALLOWED.length; i++) {
    if (ALLOWED[i][0] === request.method && ALLOWED[i][1].test(request.uri)) return request;
  }
  return {
    statusCode: 403,
    statusDescription: 'Forbidden',
    headers: { 'content-type': { value: 'application/json' }, 'cache-control': { value: 'no-store' } },
    body: { encoding: 'text', data: BODY },
  };
}`;
}
