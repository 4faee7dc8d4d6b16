import { describe, expect, it } from 'vitest';
import type { Access } from '../shared/session';
import { decideProtectedRoute, decideVisitorRoute, redirectOnActivation } from './guards';

const loading: Access = { status: 'loading' };
const visitor: Access = { status: 'visitor' };
const onboarding: Access = { status: 'authenticated', hasActiveSubscription: false };
const subscriber: Access = { status: 'authenticated', hasActiveSubscription: true };

describe('decideProtectedRoute', () => {
  it('shows a spinner while access loads', () => {
    expect(decideProtectedRoute(loading, '/agents', '')).toEqual({ type: 'spinner' });
  });

  it('sends a visitor to /login with the current path and search', () => {
    expect(decideProtectedRoute(visitor, '/contacts/7', '?x=1')).toEqual({
      type: 'redirect',
      to: '/login?redirectUrl=%2Fcontacts%2F7%3Fx%3D1',
    });
    expect(decideProtectedRoute(visitor, '/', '')).toEqual({ type: 'redirect', to: '/login' });
  });

  it('sends a user who just logged out (or lost the session) to plain /login', () => {
    expect(decideProtectedRoute({ status: 'visitor', signedOut: true }, '/agents', '')).toEqual({ type: 'redirect', to: '/login' });
  });

  it('shows onboarding on every path without an active subscription', () => {
    for (const path of ['/', '/agents', '/onboarding', '/no-such-page']) {
      expect(decideProtectedRoute(onboarding, path, '')).toEqual({ type: 'render', view: 'onboarding' });
    }
  });

  it('opens /subscription and /subscription/success without an active subscription (past_due, checkout return)', () => {
    for (const path of ['/subscription', '/subscription/', '/subscription/success']) {
      expect(decideProtectedRoute(onboarding, path, '?session_id=cs_1')).toEqual({ type: 'render', view: 'app' });
    }
    for (const path of ['/subscriptions', '/subscription/other', '/profile']) {
      expect(decideProtectedRoute(onboarding, path, '')).toEqual({ type: 'render', view: 'onboarding' });
    }
  });

  it('opens the app with an active subscription and leaves onboarding for /', () => {
    expect(decideProtectedRoute(subscriber, '/agents', '')).toEqual({ type: 'render', view: 'app' });
    expect(decideProtectedRoute(subscriber, '/no-such-page', '')).toEqual({ type: 'render', view: 'app' });
    expect(decideProtectedRoute(subscriber, '/onboarding', '')).toEqual({ type: 'redirect', to: '/' });
  });
});

describe('decideVisitorRoute', () => {
  it('renders auth pages for visitors', () => {
    expect(decideVisitorRoute(visitor, '/register', '')).toEqual({ type: 'render', view: 'visitor' });
  });

  it('sends a signed-in user on /login to the sanitised redirectUrl', () => {
    expect(decideVisitorRoute(subscriber, '/login', '?redirectUrl=%2Fagents')).toEqual({ type: 'redirect', to: '/agents' });
    expect(decideVisitorRoute(subscriber, '/login', '?redirectUrl=https%3A%2F%2Fevil.example')).toEqual({
      type: 'redirect',
      to: '/',
    });
    expect(decideVisitorRoute(onboarding, '/register', '')).toEqual({ type: 'redirect', to: '/' });
  });

  it("sends a new sign-up back to the invitation that sent them (issue 32), still only on this site", () => {
    expect(decideVisitorRoute(onboarding, '/register', '?email=lucia%40example.com&redirectUrl=%2Finvite%2Fabc')).toEqual({ type: 'redirect', to: '/invite/abc' });
    expect(decideVisitorRoute(onboarding, '/register', '?redirectUrl=%2F%2Fevil.example')).toEqual({ type: 'redirect', to: '/' });
    expect(decideVisitorRoute(onboarding, '/forgot-password', '?redirectUrl=%2Finvite%2Fabc')).toEqual({ type: 'redirect', to: '/' });
  });
});

describe('redirectOnActivation', () => {
  it('sends a user whose subscription just became active to /', () => {
    expect(redirectOnActivation(false, true, '/agents')).toBe('/');
  });
  it('leaves the payment success page and /subscription where they are', () => {
    expect(redirectOnActivation(false, true, '/subscription/success')).toBeNull();
    expect(redirectOnActivation(false, true, '/subscription')).toBeNull();
  });
  it('does nothing on first load or when nothing changed', () => {
    expect(redirectOnActivation(undefined, true, '/agents')).toBeNull();
    expect(redirectOnActivation(true, true, '/agents')).toBeNull();
    expect(redirectOnActivation(true, false, '/agents')).toBeNull();
  });
});
