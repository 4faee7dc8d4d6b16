import { describe, expect, it } from 'vitest';
import type { User } from '@agentdesk/functions/contract';
import { navigationFor, type NavEntry } from './navigation';

const user = (over: Partial<User> = {}): User => ({
  _id: 'u1',
  name: 'Ana Peña',
  email: 'ana@example.es',
  phoneNumber: '',
  language: 'es',
  timeZone: 'Europe/Madrid',
  role: 'user',
  createdAt: '2026-11-26T00:00:00.000Z',
  authProvider: 'password',
  features: { whatsapp: true },
  hasActiveSubscription: true,
  ...over,
} as User);

const paths = (entries: NavEntry[]) => entries.flatMap((e) => (e.kind === 'link' ? [e.to] : e.children.map((c) => c.to)));

describe('navigationFor', () => {
  it('without an active subscription offers only onboarding and the subscription page (no link that bounces)', () => {
    expect(paths(navigationFor(user({ hasActiveSubscription: false, role: 'admin' })))).toEqual(['/onboarding', '/subscription']);
  });

  it('with one offers the whole sidebar, the WhatsApp group and admin only to whom they apply', () => {
    const all = paths(navigationFor(user({ role: 'admin' })));
    expect(all).toEqual(expect.arrayContaining(['/', '/agents', '/contacts', '/bookings', '/conversations', '/subscription', '/admin']));
    const plain = paths(navigationFor(user({ features: { whatsapp: false } })));
    expect(plain).not.toContain('/conversations');
    expect(plain).not.toContain('/admin');
  });

  it('hides from each role the pages it cannot open (issue 32), and a group left empty', () => {
    const agent = paths(navigationFor(user(), 'agent'));
    expect(agent).toEqual(expect.arrayContaining(['/', '/conversations', '/messages', '/contacts', '/bookings', '/voice-conversations', '/team', '/profile']));
    for (const hidden of ['/agents', '/integrations', '/api-keys', '/voice-settings', '/subscription', '/activity', '/privacy-settings', '/admin']) expect(agent).not.toContain(hidden);
    // A site admin's desk is still a page agents cannot open in someone else's account.
    expect(paths(navigationFor(user({ role: 'admin' }), 'agent'))).not.toContain('/admin');

    const admin = paths(navigationFor(user(), 'admin'));
    expect(admin).toEqual(expect.arrayContaining(['/agents', '/integrations', '/api-keys', '/voice-settings', '/team', '/activity', '/privacy-settings']));
    expect(admin).not.toContain('/subscription');

    expect(paths(navigationFor(user(), 'owner'))).toEqual(expect.arrayContaining(['/subscription', '/team', '/activity']));
  });
});
