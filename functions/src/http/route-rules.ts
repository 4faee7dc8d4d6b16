/**
 * The manifest's per-route rules the HTTP wrapper applies: paid-feature routes, 'userOrApiKey'
 * routes, webhook verifications, roles and activity-log actions (issue 32), and the API Gateway
 * routes that serve several manifest routes (route-plan.ts). A deployed bundle gets them as build-time constants
 * (infra/lib/bundling.ts, esbuild define) so it does not carry the whole manifest (~9 KB in every
 * function otherwise); unbundled (local runtime, tests) they are read from the manifest itself.
 */
import { sharedRoutes } from '../route-plan.js';
import type { ActivityAction, MemberRole } from '../contract/team-roles.js';
import { apiKeyRouteKeys, routeActivities, routeRoles, subscriptionRouteKeys, webhookVerifications, type WebhookVerification } from '../routes.js';

declare global {
  /** "METHOD /path,…" of the routes flagged `requires: 'subscription'`. */
  var AGENTDESK_SUBSCRIPTION_ROUTES: string | undefined;
  /** "METHOD /path,…" of the 'userOrApiKey' routes. */
  var AGENTDESK_API_KEY_ROUTES: string | undefined;
  /** JSON {"METHOD /path": {provider, secret}} of the 'webhook' routes. */
  var AGENTDESK_WEBHOOK_VERIFICATIONS: string | undefined;
  /** JSON {"METHOD /path": role} of the 'user' and 'userOrApiKey' routes (issue 32). */
  var AGENTDESK_ROUTE_ROLES: string | undefined;
  /** JSON {"METHOD /path": action} of the routes the activity log records (issue 32). */
  var AGENTDESK_ROUTE_ACTIVITIES: string | undefined;
  /** JSON {"ANY /api/x/{proxy+}": ["GET /api/x/{id}", …]} of the API Gateway routes that serve several manifest routes. */
  var AGENTDESK_SHARED_ROUTES: string | undefined;
}

const keySet = (list: string) => new Set(list.split(',').filter(Boolean));

/** Paid-feature routes (`requires: 'subscription'`): 402 without an active subscription. */
export const SUBSCRIPTION_ROUTES: ReadonlySet<string> =
  globalThis.AGENTDESK_SUBSCRIPTION_ROUTES !== undefined ? keySet(globalThis.AGENTDESK_SUBSCRIPTION_ROUTES) : subscriptionRouteKeys();

/** Routes that accept a product API key: their group must install the API-key guard. */
export const API_KEY_ROUTES: ReadonlySet<string> =
  globalThis.AGENTDESK_API_KEY_ROUTES !== undefined ? keySet(globalThis.AGENTDESK_API_KEY_ROUTES) : apiKeyRouteKeys();

/** How each webhook route's signature is verified before the route runs. */
export const WEBHOOK_VERIFICATIONS: Readonly<Record<string, WebhookVerification>> =
  globalThis.AGENTDESK_WEBHOOK_VERIFICATIONS !== undefined
    ? (JSON.parse(globalThis.AGENTDESK_WEBHOOK_VERIFICATIONS) as Record<string, WebhookVerification>)
    : webhookVerifications();

/** The least role in the account each signed-in route needs (issue 32): 403 below it. */
export const ROUTE_ROLES: Readonly<Record<string, MemberRole>> =
  globalThis.AGENTDESK_ROUTE_ROLES !== undefined ? (JSON.parse(globalThis.AGENTDESK_ROUTE_ROLES) as Record<string, MemberRole>) : routeRoles();

/** The action the activity log records after each of these routes succeeded (issue 32). */
export const ROUTE_ACTIVITIES: Readonly<Record<string, ActivityAction>> =
  globalThis.AGENTDESK_ROUTE_ACTIVITIES !== undefined ? (JSON.parse(globalThis.AGENTDESK_ROUTE_ACTIVITIES) as Record<string, ActivityAction>) : routeActivities();

/** API Gateway routes (greedy, or ANY on one path) → the manifest routes each serves: the wrapper resolves which one a request is. */
export const SHARED_ROUTES: Readonly<Record<string, readonly string[]>> =
  globalThis.AGENTDESK_SHARED_ROUTES !== undefined ? (JSON.parse(globalThis.AGENTDESK_SHARED_ROUTES) as Record<string, string[]>) : sharedRoutes();
