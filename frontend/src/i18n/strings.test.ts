import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';
import { keyPaths as keys } from './keyPaths';

describe('app-wide strings', () => {
  it('has every English key in Spanish too (the server texts are Spanish only)', () => {
    const { serverMessages: _server, ...esApp } = es;
    expect(keys(esApp).sort()).toEqual(keys(en).sort());
  });

  it("keeps the shared kit's spec texts exact (SPEC §6)", () => {
    expect(en.common.premiumRequired).toBe('This feature requires a premium subscription');
    expect(es.common.premiumRequired).toBe('Esta función requiere una suscripción premium');
  });
});
