import { describe, expect, it } from 'vitest';
import { keyPaths as keys } from '../../../i18n/keyPaths';
import en from './i18n/en.json';
import es from './i18n/es.json';

describe('Google Calendar card strings', () => {
  it('has every English key in Spanish', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('keeps the server texts it stands for in English', async () => {
    const { bookingMessages } = await import('@agentdesk/functions/contract');
    expect(en.dialog.saved).toBe(bookingMessages.googleSaved);
    expect(en.dialog.unknown).toBe(bookingMessages.googleCalendarUnknown);
    expect(en.confirmDisconnect.done).toBe(bookingMessages.googleDisconnected);
  });
});
