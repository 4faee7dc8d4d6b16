import { describe, expect, it } from 'vitest';
import { ID_LENGTH, idTime, isId, newId } from '../../../src/lib/ids.js';

describe('newId', () => {
  it('is 26 Crockford base-32 characters that encode the time', () => {
    const at = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
    const id = newId(at);
    expect(id).toHaveLength(ID_LENGTH);
    expect(isId(id)).toBe(true);
    expect(id).not.toMatch(/[ILOU]/);
    expect(idTime(id)).toBe(at);
  });

  it('sorts by creation time as a plain string', () => {
    const ids = [newId(1_000), newId(2_000), newId(1_700_000_000_000), newId(1_800_000_000_000)];
    expect([...ids].sort()).toEqual(ids);
  });

  it('keeps creation order within one millisecond, and when the clock goes back', () => {
    const t = 1_750_000_000_000;
    const ids = Array.from({ length: 500 }, () => newId(t));
    ids.push(newId(t - 10));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('refuses what cannot be an id', () => {
    expect(isId('')).toBe(false);
    expect(isId('01ARZ3NDEKTSV4RRFFQ69G5FA')).toBe(false);
    expect(isId('01ARZ3NDEKTSV4RRFFQ69G5FAVV')).toBe(false);
    expect(isId('01arz3ndektsv4rrffq69g5fav')).toBe(false);
    expect(isId('01ARZ3NDEKTSV4RRFFQ69G5FAU')).toBe(false);
    expect(isId('01ARZ3NDEKTSV4RRFFQ69G5FAV')).toBe(true);
  });
});
