/** Issue 29 item 7: WhatsApp is every account's; the operator's WHATSAPP_USER_IDS is only an optional rollout list. */
import { describe, expect, it } from 'vitest';
import { whatsappFor } from '../../../src/domain/auth/user-view.js';

describe('who sees WhatsApp', () => {
  it('everyone when no rollout list is configured', () => {
    expect(whatsappFor('any-user', [])).toBe(true);
  });

  it('only the listed accounts when the operator set a list', () => {
    expect(whatsappFor('sub-1', ['sub-1', 'sub-2'])).toBe(true);
    expect(whatsappFor('sub-3', ['sub-1', 'sub-2'])).toBe(false);
  });
});
