import { describe, expect, it } from 'vitest';
import { apiKeyMessages } from '@agentdesk/functions/contract';
import en from './i18n/en.json';
import es from './i18n/es.json';
import { apiKeyList } from './api';
import { formatDate as formatDateTime } from '../../shared/intl';
import { maskedKey } from './format';
import { keyPaths as keys } from '../../i18n/keyPaths';

describe('API keys page strings', () => {
  it('translates every contract text, keyed like apiKeyMessages, with the exact English', () => {
    expect(Object.keys(en.messages).sort()).toEqual(Object.keys(apiKeyMessages).sort());
    for (const [key, text] of Object.entries(en.messages)) {
      expect((apiKeyMessages as Record<string, unknown>)[key], key).toBe(text);
    }
  });

  it('has every key in Spanish, each one translated', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
    for (const key of Object.keys(es.messages) as (keyof typeof es.messages)[]) {
      expect(es.messages[key], key).not.toBe(en.messages[key]);
    }
  });
});

describe('API keys list helpers', () => {
  it('reads the list as an array or wrapped', () => {
    const row = { _id: 'k1', name: 'CRM', prefix: 'ak_abcdefg', createdAt: '2026-01-02T03:04:05.000Z', lastUsedAt: null };
    expect(apiKeyList([row])).toEqual([row]);
    expect(apiKeyList({ apiKeys: [row] })).toEqual([row]);
    expect(apiKeyList({ items: [row] })).toEqual([row]);
    expect(apiKeyList(null)).toEqual([]);
  });

  it('shows only the prefix of a key and dates in the UI language (null when never used)', () => {
    expect(maskedKey('ak_abcdefg')).toBe('ak_abcdefg…');
    expect(formatDateTime('en', null)).toBeNull();
    expect(formatDateTime('en', 'not a date')).toBeNull();
    expect(formatDateTime('en', '2026-01-02T03:04:05.000Z')).toMatch(/2026/);
  });
});
