import { describe, expect, it } from 'vitest';
import { loginUrlFor, sanitizeRedirect } from './redirect';

describe('sanitizeRedirect', () => {
  it('keeps same-site paths with their query and hash', () => {
    expect(sanitizeRedirect('/agents/42?tab=files#top')).toBe('/agents/42?tab=files#top');
  });

  it.each([null, undefined, '', 'agents', 'https://evil.example/x', '//evil.example', '/\\evil.example', 'javascript:alert(1)', '/\tx'])(
    'falls back to / for %j',
    (raw) => {
      expect(sanitizeRedirect(raw)).toBe('/');
    },
  );

  it('never returns to an auth page', () => {
    expect(sanitizeRedirect('/login?redirectUrl=/agents')).toBe('/');
    expect(sanitizeRedirect('/register')).toBe('/');
  });
});

describe('loginUrlFor', () => {
  it('carries the path and search in redirectUrl', () => {
    expect(loginUrlFor('/contacts', '?search=ann')).toBe('/login?redirectUrl=%2Fcontacts%3Fsearch%3Dann');
  });

  it('sends a visitor on / to plain /login', () => {
    expect(loginUrlFor('/', '')).toBe('/login');
  });
});
