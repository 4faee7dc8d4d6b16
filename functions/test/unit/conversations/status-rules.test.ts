/** Delivery statuses only move forward (domain/conversations/ports.ts statusCanMove). */
import { describe, expect, it } from 'vitest';
import { MESSAGE_STATUSES, type MessageStatus } from '../../../src/contract/whatsapp.js';
import { statusCanMove } from '../../../src/domain/conversations/ports.js';

describe('statusCanMove', () => {
  it('pending < sent < delivered < read; read may arrive before delivered; failed only from pending or sent', () => {
    const allowed = MESSAGE_STATUSES.flatMap((from) => MESSAGE_STATUSES.filter((to) => statusCanMove(from, to)).map((to) => `${from}→${to}`));

    expect(allowed).toEqual([
      'pending→sent',
      'pending→delivered',
      'pending→read',
      'pending→failed',
      'sent→delivered',
      'sent→read',
      'sent→failed',
      'delivered→read',
    ]);
  });

  it('never moves to the same status (a repeated webhook changes nothing)', () => {
    for (const s of MESSAGE_STATUSES) expect(statusCanMove(s, s as MessageStatus)).toBe(false);
  });
});
