/**
 * Thin HTTP plumbing shared by every route group.
 *
 * A route group is one Lambda function (see routes.ts). It receives API Gateway
 * HTTP API v2 events, picks the route by `event.routeKey` ("POST /api/login"),
 * and runs a small route function that parses input, calls one domain function
 * and returns data. Errors become responses in exactly one place: `toErrorResponse`.
 * An API Gateway route that serves several manifest routes (route-plan.ts: a greedy
 * "ANY /api/x/{proxy+}", or ANY on one path) is first resolved to the manifest route
 * the request is, so everything after sees that route's routeKey and pathParameters.
 */
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type {
  APIGatewayProxyEventV2WithJWTAuthorizer,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import type * as z from 'zod/mini';
import {
  DomainError,
  ForbiddenError,
  NotFoundError,
  PaymentRequiredError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
} from '../domain/errors.js';
import { logger } from '../adapters/logger.js';
import { httpMessages } from '../contract/account-texts.js';
import type { ApiAuthContext } from '../auth/context.js';
import { callerIdentity, type CallerIdentity } from '../auth/identity.js';
import { FORBIDDEN_BY_ROLE, roleAtLeast, type ActivityAction, type MemberRole } from '../contract/team-roles.js';
import { userHasActiveSubscription } from '../composition/subscription-gate.js';
import { subscriptionRequiredMessage } from '../domain/billing/messages.js';
import type { RouteKey } from '../routes.js';
import { API_KEY_ROUTES, ROUTE_ACTIVITIES, ROUTE_ROLES, SHARED_ROUTES, SUBSCRIPTION_ROUTES, WEBHOOK_VERIFICATIONS } from './route-rules.js';
import { decodePathSegment, isGreedy, parseTemplate, pathSegments, templateRouter } from './route-match.js';
import type { VerifiedPayloads, VerifiedWebhook, WebhookStep } from './webhook-verification.js';

export type HttpEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type HttpResult = APIGatewayProxyStructuredResultV2;

export interface Request {
  event: HttpEvent;
  /** Path parameters from the route template, e.g. {id}. */
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Raw body bytes (base64-decoded when needed): webhooks verify signatures over these. */
  rawBody: Buffer;
  /** Parsed JSON body, or undefined when there is none. */
  json(): unknown;
  /**
   * The tenant: the caller's account id (issue 32), which every item of the request belongs to.
   * The token's account claim for a member, else the caller's own user id (Cognito `sub`); an
   * API key's account. (Named userId since an account's id is its first owner's user id.)
   */
  userId(): string;
  /** The person calling (Cognito `sub`): their own profile, password, devices, assignments. An API key: its account's id. */
  memberId(): string;
  /** The caller's role in the account (an API key acts as an admin). */
  role(): MemberRole;
  /** Who did it, for the activity log and "sent by": the member, or the API key. */
  actor(): { kind: 'member'; id: string } | { kind: 'apiKey'; id: string };
  /** Whether the caller is in the Cognito 'admin' group (the platform's admin desk; claim cognito:groups, flattened to "[a b]" by API Gateway). An API key never is. */
  isAdmin(): boolean;
  /** How the caller authenticated: a Cognito token ('user') or a product API key ('apiKey'). */
  authType(): 'user' | 'apiKey';
  /** The caller's bearer access token (for calls that act as the user, e.g. ChangePassword). */
  accessToken(): string;
  /**
   * The caller's address: the viewer's, from CloudFront-Viewer-Address (in AWS every /api/*
   * request comes through CloudFront, so API Gateway's sourceIp is an edge server that everyone
   * behind it shares), else the connection's (requestContext.http.sourceIp).
   */
  sourceIp: string;
  /**
   * The payload the route's declared webhook verification produced (the wrapper ran it before
   * the route). Throws on a route without that verification: a programming error, a 500.
   */
  webhook<P extends keyof VerifiedPayloads>(provider: P): VerifiedPayloads[P];
}

/** What a route function may return: data wrapped as {success, data, message}, or a full result. */
export type RouteResult =
  | {
      status?: number;
      data?: unknown;
      message?: string;
      extra?: Record<string, unknown>;
      /** Figures the route's activity-log entry keeps (issue 33: the retention days that changed); never sent in the answer. */
      activityDetails?: Record<string, number>;
    }
  | { raw: HttpResult };

export type RouteFn = (req: Request) => Promise<RouteResult>;

export type RouteTable = Partial<Record<RouteKey, RouteFn>>;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}

/** Validate input with a contract schema; the first failing rule's message becomes the 400 text. */
export function parseWith<S extends z.ZodMiniType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') || undefined;
  throw new ValidationError(issue?.message ?? httpMessages.invalidRequest, field);
}

export function toErrorResponse(error: unknown): HttpResult {
  if (error instanceof DomainError) {
    const headers: Record<string, string> = {};
    if ((error instanceof TooManyRequestsError || error instanceof ServiceUnavailableError) && error.retryAfterSeconds) {
      headers['retry-after'] = String(error.retryAfterSeconds);
    }
    const body: Record<string, unknown> = { ...error.details, success: false, message: error.message };
    if (error instanceof ValidationError && error.field) body.field = error.field;
    return json(error.status, body, headers);
  }
  // Anything else is our fault: log it, answer without internals.
  logger.error('Unhandled error', { error: error as Error });
  return json(500, { success: false, message: httpMessages.internalError });
}

/** The request's headers by lower-cased name (API Gateway v2 already lower-cases them; the local gateway and tests may not). */
function lowerCaseHeaders(event: HttpEvent): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(event.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v;
  return headers;
}

/** The IP of a CloudFront-Viewer-Address value ("198.51.100.10:46532", "2001:db8::1:46532"), or null. */
export function viewerAddress(value: string | undefined): string | null {
  const m = /^([0-9A-Fa-f.:]{2,45}):(\d{1,5})$/.exec(value?.trim() ?? '');
  return m?.[1] ?? null;
}

function buildRequest(event: HttpEvent, headers: Record<string, string>, rawBody: Buffer, verified: VerifiedWebhook | undefined): Request {
  let parsed: unknown;
  let parsedOnce = false;
  let who: CallerIdentity | null | undefined;
  const identity = (): CallerIdentity => {
    who ??= callerIdentity(event);
    if (!who) throw new UnauthorizedError(httpMessages.authenticationRequired);
    return who;
  };
  return {
    event,
    params: (event.pathParameters ?? {}) as Record<string, string>,
    query: (event.queryStringParameters ?? {}) as Record<string, string>,
    headers,
    rawBody,
    sourceIp: viewerAddress(headers['cloudfront-viewer-address']) ?? event.requestContext?.http?.sourceIp ?? '',
    json() {
      if (!parsedOnce) {
        parsedOnce = true;
        if (rawBody.length === 0) return undefined;
        try {
          parsed = JSON.parse(rawBody.toString('utf8'));
        } catch {
          throw new ValidationError(httpMessages.invalidJson);
        }
      }
      return parsed;
    },
    userId() {
      return identity().accountId;
    },
    memberId() {
      const who = identity();
      return who.memberId ?? who.accountId;
    },
    role() {
      return identity().role;
    },
    actor() {
      const who = identity();
      return who.kind === 'apiKey' ? { kind: 'apiKey', id: who.keyId ?? '' } : { kind: 'member', id: who.memberId ?? who.accountId };
    },
    authType() {
      return lambdaAuth(event)?.authType === 'apiKey' ? 'apiKey' : 'user';
    },
    isAdmin() {
      const who = callerIdentity(event);
      if (!who || who.kind !== 'user') return false;
      return who.groups.replace(/^\[|\]$/g, '').split(/[\s,]+/).includes('admin');
    },
    accessToken() {
      const value = headers.authorization ?? '';
      const match = /^Bearer\s+(.+)$/i.exec(value);
      if (!match?.[1]) throw new UnauthorizedError(httpMessages.authenticationRequired);
      return match[1];
    },
    webhook<P extends keyof VerifiedPayloads>(provider: P): VerifiedPayloads[P] {
      if (verified?.provider !== provider) throw new Error(`${event.routeKey} has no verified ${provider} payload`);
      return verified.payload as VerifiedPayloads[P];
    },
  };
}

const succeeded = (result: RouteResult): boolean => ('raw' in result ? (result.raw.statusCode ?? 200) < 400 : (result.status ?? 200) < 400);

/** The API authorizer's context on 'userOrApiKey' routes (absent on every other route). */
function lambdaAuth(event: HttpEvent): ApiAuthContext | undefined {
  const authorizer = event.requestContext?.authorizer as { lambda?: ApiAuthContext } | undefined;
  return authorizer?.lambda ?? undefined;
}

/**
 * The checks of 'userOrApiKey' requests (http/api-key-auth.ts): the response to send instead of
 * running the route, or undefined. Injected only by the groups that serve such routes, so the
 * other functions do not bundle the API-key wiring.
 */
export type ApiKeyGuard = (auth: Exclude<ApiAuthContext, { authType: 'user' }>) => Promise<HttpResult | undefined>;

/** Records a route's action in the account's activity log (composition/activity.ts recordRouteActivity). */
export type ActivityRecorder = (req: Request, action: ActivityAction, result: RouteResult) => Promise<void>;

export interface GroupOptions {
  /**
   * Required when the group serves a route that declares `activity` (checked when the function
   * starts); injected, like the API-key guard, so a function without such routes (the webhooks'
   * first contact) does not bundle the log's writer.
   */
  activity?: ActivityRecorder;
  /** Required when the group serves a 'userOrApiKey' route (checked when the function starts). */
  apiKeys?: ApiKeyGuard;
  /** webhookVerification({provider: verifier}) for the providers the group's 'webhook' routes declare (checked when the function starts). */
  webhooks?: WebhookStep;
}

/**
 * The resolvers of the shared API Gateway routes that serve this table's routes, compiled once:
 * each takes the request's method and path to the manifest route API Gateway would have chosen
 * among the routes THAT API Gateway route serves (never one behind another authorizer), with its
 * path parameters; undefined when none matches. A greedy route's path is the raw path, cut into
 * segments before each is decoded, as API Gateway matched and decoded them for an explicit route
 * (its decoded {proxy} would turn an encoded "/" inside an id into two segments); an ANY route on
 * one path already has its parameters.
 */
export function sharedRouteResolvers(table: RouteTable): Map<string, (event: HttpEvent) => HttpEvent | undefined> {
  const resolvers = new Map<string, (event: HttpEvent) => HttpEvent | undefined>();
  for (const [apiRouteKey, served] of Object.entries(SHARED_ROUTES)) {
    const mine = served.filter((key) => key in table).map((key) => ({ key, method: key.slice(0, key.indexOf(' ')), path: key.slice(key.indexOf(' ') + 1) }));
    if (mine.length === 0) continue;
    const template = parseTemplate(apiRouteKey.slice(apiRouteKey.indexOf(' ') + 1));
    const greedy = isGreedy(template);
    const route = templateRouter(mine);
    resolvers.set(apiRouteKey, (event) => {
      const params = (event.pathParameters ?? {}) as Record<string, string>;
      const method = event.requestContext?.http?.method ?? '';
      const found = greedy
        ? route(method, pathSegments(event.rawPath ?? ''), decodePathSegment)
        : route(method, template.map((s) => (s.kind === 0 ? s.text : (params[s.text] ?? ''))));
      if (!found) return undefined;
      const { pathParameters: _shared, ...rest } = event;
      return {
        ...rest,
        routeKey: found.route.key,
        ...(Object.keys(found.params).length > 0 ? { pathParameters: found.params } : {}),
        requestContext: { ...event.requestContext, routeKey: found.route.key },
      } as HttpEvent;
    });
  }
  return resolvers;
}

/** Build the Lambda handler of one route group from its route table. */
export function httpGroup(routes: RouteTable, options: GroupOptions = {}) {
  const keys = Object.keys(routes);
  for (const key of keys) {
    const rule = WEBHOOK_VERIFICATIONS[key];
    if (rule && !options.webhooks?.providers.has(rule.provider)) throw new Error(`${key} declares a ${rule.provider} signature, but its handler has no ${rule.provider} verifier`);
  }
  const logged = keys.find((key) => key in ROUTE_ACTIVITIES);
  if (logged && !options.activity) throw new Error(`${logged} is logged in the activity log, but its handler has no activity recorder`);
  const needsApiKeys = keys.find((key) => API_KEY_ROUTES.has(key));
  if (needsApiKeys && !options.apiKeys) throw new Error(`${needsApiKeys} accepts API keys, but its handler has no API-key guard`);
  const shared = sharedRouteResolvers(routes);
  const base = async (received: HttpEvent, _context: Context): Promise<HttpResult> => {
    // Before anything else: a shared route's event becomes its manifest route's (a path it does not serve: 404).
    const resolve = shared.get(received.routeKey);
    const event = resolve ? resolve(received) : received;
    logger.appendKeys({ routeKey: event?.routeKey ?? received.routeKey });
    const route = event && routes[event.routeKey as RouteKey];
    if (!event || !route) return toErrorResponse(new NotFoundError(httpMessages.notFound));
    try {
      const auth = lambdaAuth(event);
      if (auth && auth.authType !== 'user') {
        // Only the API authorizer sets this context; without the guard, fail closed.
        const refused = options.apiKeys ? await options.apiKeys(auth) : json(401, { message: httpMessages.unauthorized }, { 'www-authenticate': 'Bearer' });
        if (refused) return refused;
      }
      const headers = lowerCaseHeaders(event);
      const rawBody = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
      // A webhook's signature is checked on the raw request before anything reads it.
      const rule = WEBHOOK_VERIFICATIONS[event.routeKey];
      let verified: VerifiedWebhook | undefined;
      if (rule) {
        const outcome = await options.webhooks!.run(rule, event, headers, rawBody);
        if ('refused' in outcome) return outcome.refused;
        verified = outcome.verified;
      }
      const req = buildRequest(event, headers, rawBody, verified);
      // 403 below the route's role (issue 32), from the token's claims: no table read.
      const needed = ROUTE_ROLES[event.routeKey];
      if (needed && !roleAtLeast(req.role(), needed)) throw new ForbiddenError(FORBIDDEN_BY_ROLE);
      // 402 before the route reads its input or writes anything (a user token or an API key alike).
      if (SUBSCRIPTION_ROUTES.has(event.routeKey) && !(await userHasActiveSubscription(req.userId()))) {
        throw new PaymentRequiredError(subscriptionRequiredMessage);
      }
      const result = await route(req);
      const action = ROUTE_ACTIVITIES[event.routeKey];
      if (action && succeeded(result)) await options.activity!(req, action, result);
      if ('raw' in result) return result.raw;
      return json(result.status ?? 200, {
        success: true,
        ...(result.message !== undefined ? { message: result.message } : {}),
        ...(result.data !== undefined ? { data: result.data } : {}),
        ...result.extra,
      });
    } catch (error) {
      return toErrorResponse(error);
    }
  };
  // resetKeys: the routeKey appended for one request must not label the next one's logs.
  return middy(base).use(injectLambdaContext(logger, { resetKeys: true }));
}
