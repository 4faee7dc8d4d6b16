/**
 * The manifest's roles and activity actions (issue 32): every signed-in route declares the least
 * role it needs (http/handler.ts refuses below it), only billing and ownership are the owner's,
 * an agent reaches none of integrations, API keys, agents' configuration, billing or the admin
 * desk, and every declared activity is one the log knows.
 */
import { describe, expect, it } from 'vitest';
import { ACTIVITY_ACTIONS, isMemberRole } from '../../../src/contract/team.js';
import { routeActivities, routeRoles, routes as manifest, type RouteDef } from '../../../src/routes.js';

/** Widened: the manifest's literal types would make every check below a type error. */
const routes: readonly RouteDef[] = manifest;

const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
const signedIn = routes.filter((r) => r.auth === 'user' || r.auth === 'userOrApiKey');

/** The owner's alone: the plan and its payment, and handing the account over. A product decision: change it with the list. */
const OWNER_ONLY = [
  'POST /api/subscription/checkout',
  'GET /api/subscription/verify-session/{id}',
  'PUT /api/subscription/plan',
  'POST /api/subscription/cancel',
  'POST /api/subscription/portal',
  'POST /api/team/ownership',
  // Issue 33: only the owner deletes the account.
  'POST /api/privacy/account-deletion',
];

describe('routes.ts: roles (issue 32)', () => {
  it('every user and userOrApiKey route declares a role', () => {
    const missing = signedIn.filter((r) => !isMemberRole(r.role)).map(key);
    expect(missing).toEqual([]);
    expect(Object.keys(routeRoles()).sort()).toEqual(signedIn.map(key).sort());
  });

  it('public and webhook routes declare none (no caller to have a role)', () => {
    expect(routes.filter((r) => (r.auth === 'public' || r.auth === 'webhook') && r.role !== undefined).map(key)).toEqual([]);
  });

  it('only billing, ownership and the account\'s deletion need the owner', () => {
    expect(signedIn.filter((r) => r.role === 'owner').map(key).sort()).toEqual([...OWNER_ONLY].sort());
  });

  it('an agent reaches no integration, API key, agent configuration, billing or admin-desk route (reading the agents list and the plan aside)', () => {
    const closed = /^\/api\/(integrations|api-keys|subscription|admin|billing|team\/(invitations|members|activity|ownership))(\/|$)/;
    // What the app reads to know which features the account has.
    const reads = new Set(['GET /api/subscription/current', 'GET /api/subscription/plans']);
    const agentOpen = signedIn.filter((r) => r.role === 'agent');
    expect(agentOpen.filter((r) => closed.test(r.path) && !reads.has(key(r))).map(key)).toEqual([]);
    expect(agentOpen.filter((r) => r.path.startsWith('/api/agents')).map(key)).toEqual(['GET /api/agents']);
  });

  it('an API key (acting as admin) is never offered an owner route', () => {
    expect(routes.filter((r) => r.auth === 'userOrApiKey' && r.role === 'owner').map(key)).toEqual([]);
  });
});

describe('routes.ts: activity actions (issue 32)', () => {
  it('every declared activity is an ACTIVITY_ACTIONS value, on a signed-in route', () => {
    for (const r of routes.filter((route) => route.activity !== undefined)) {
      expect(ACTIVITY_ACTIONS, key(r)).toContain(r.activity);
      expect(['user', 'userOrApiKey'], key(r)).toContain(r.auth);
    }
    expect(Object.keys(routeActivities()).length).toBeGreaterThan(10);
  });

  it("no read is logged as an action, but an export (the account's data leaving it) is", () => {
    expect(routes.filter((r) => r.method === 'GET' && r.activity !== undefined).map(key)).toEqual(['GET /api/contacts/export']);
    expect(routeActivities()['GET /api/contacts/export']).toBe('contacts.exported');
  });

  it('a sign-in is logged by the trigger, not by a route', () => {
    expect(routes.filter((r) => r.activity === 'member.signed_in').map(key)).toEqual([]);
  });
});
