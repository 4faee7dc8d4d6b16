import { describe, expect, it } from 'vitest';
import { BOOKING_CHANNELS, BOOKING_STATUSES } from '@agentdesk/functions/contract';
import en from './en.json';
import es from './es.json';
import { keyPaths as keys } from '../../../../i18n/keyPaths';

describe('bookings calendar strings', () => {
  it('has every English key in Spanish too', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('names every status and channel of the contract', () => {
    expect(Object.keys(en.statuses).sort()).toEqual([...BOOKING_STATUSES].sort());
    expect(Object.keys(en.channels).sort()).toEqual([...BOOKING_CHANNELS].sort());
  });

  it('says the empty state as the issue words it, and in Spanish as a Spanish owner reads it', () => {
    expect(en.empty.title).toBe('No bookings yet — set up your services');
    expect(es.empty.title).toBe('Aún no hay citas: configura tus servicios');
    expect(es.views).toEqual({ label: 'Vista', day: 'Día', week: 'Semana', list: 'Lista' });
  });
});
