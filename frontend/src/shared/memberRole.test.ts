import { describe, expect, it } from 'vitest';
import { ACCOUNT_CLAIMS } from '@agentdesk/functions/contract';
import { canOpenPage, pageRole, roleFromToken } from './memberRole';

const b64url = (value: string) => btoa(String.fromCharCode(...new TextEncoder().encode(value))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (payload: Record<string, unknown>) => `${b64url('{"alg":"RS256"}')}.${b64url(JSON.stringify(payload))}.signature`;

describe('roleFromToken', () => {
  it("reads the account role claim the pre-token trigger adds (names with accents don't break the payload)", () => {
    expect(roleFromToken(jwt({ sub: 'p1', name: 'Lucía Martín', [ACCOUNT_CLAIMS.account]: 'a1', [ACCOUNT_CLAIMS.role]: 'agent' }))).toBe('agent');
    expect(roleFromToken(jwt({ sub: 'p1', [ACCOUNT_CLAIMS.role]: 'admin' }))).toBe('admin');
  });

  it('has none without the claim (a single-user account) or without a readable token', () => {
    expect(roleFromToken(jwt({ sub: 'p1' }))).toBeUndefined();
    expect(roleFromToken(jwt({ sub: 'p1', [ACCOUNT_CLAIMS.role]: 'superuser' }))).toBeUndefined();
    expect(roleFromToken('not-a-jwt')).toBeUndefined();
    expect(roleFromToken(null)).toBeUndefined();
  });
});

describe('pages by role', () => {
  it('keeps integrations, API keys, agents, voice settings, bookings setup, the activity log and the admin desk from agents', () => {
    for (const path of ['/integrations', '/api-keys', '/agents', '/agents/a1', '/voice-settings', '/bookings/setup', '/activity', '/privacy-settings', '/admin']) {
      expect(canOpenPage('agent', path), path).toBe(false);
      expect(canOpenPage('admin', path), path).toBe(true);
    }
  });

  it('keeps billing to the owner', () => {
    for (const path of ['/subscription', '/subscription/success', '/subscription/']) {
      expect(canOpenPage('admin', path), path).toBe(false);
      expect(canOpenPage('owner', path), path).toBe(true);
    }
  });

  it("opens the inbox, contacts, calls, bookings, the team and one's profile to agents", () => {
    for (const path of ['/', '/conversations', '/messages', '/contacts', '/contacts/c1', '/voice-conversations', '/bookings', '/team', '/profile']) {
      expect(pageRole(path), path).toBe('agent');
    }
    // A path only sharing a prefix is not the page.
    expect(pageRole('/agentsx')).toBe('agent');
  });
});
