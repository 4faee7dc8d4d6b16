import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// i18n/index.ts sets <html lang>: the unit project runs in Node without a DOM.
vi.hoisted(() => {
  (globalThis as { document?: unknown }).document ??= { documentElement: {} };
});

import { ACTIVITY_ACTIONS, type ActivityEntry } from '@agentdesk/functions/contract';
import i18n from '../../i18n';
import { keyPaths } from '../../i18n/keyPaths';
import en from './i18n/en.json';
import es from './i18n/es.json';
import { actionKey, activityDetails, activitySentence, zonedDayBound } from './activityFormat';
import { isSeatsFull } from './messages';
import { activitySearch } from '../../api/team';
import { teamMessages } from '@agentdesk/functions/contract';

const t = i18n.t.bind(i18n) as unknown as (key: string, values?: Record<string, unknown>) => string;
const lucia = { kind: 'member', _id: 'p2', name: 'Lucía Martín', email: 'lucia@clinica.es' } as const;
const entry = (over: Partial<ActivityEntry>): ActivityEntry => ({ _id: 'e1', at: '2026-11-28T10:00:00.000Z', action: 'conversation.replied', actor: lucia, object: null, ...over });

describe('team strings', () => {
  it('has every key in Spanish', () => {
    expect(keyPaths(es).sort()).toEqual(keyPaths(en).sort());
  });

  it('names every activity action, as a sentence and as a filter, in both languages', () => {
    for (const action of ACTIVITY_ACTIONS) {
      for (const strings of [en, es]) {
        expect(strings.activity.actions, action).toHaveProperty(actionKey(action));
        expect(strings.activity.actionNames, action).toHaveProperty(actionKey(action));
        expect(strings.activity.actionsUnnamed, action).toHaveProperty(actionKey(action));
      }
    }
    expect(Object.keys(en.activity.actions)).toHaveLength(ACTIVITY_ACTIONS.length);
  });
});

describe('activity sentences', () => {
  beforeAll(async () => {
    await import('./i18n');
    await i18n.changeLanguage('es');
  });
  afterAll(async () => {
    await i18n.changeLanguage('en');
  });

  it("says a person's erasure with its counts (issue 33), plurals and numbers in Spanish", () => {
    const erased = entry({ action: 'person.erased', details: { messages: 2000, calls: 20, recordings: 1, bookings: 0 } });
    expect(activitySentence(t, erased)).toBe('Lucía Martín borró todos los datos de una persona');
    expect(activityDetails(t, 'es', erased)).toBe('Borró 2000 mensajes, 20 llamadas y 1 grabación');
    expect(activityDetails(t, 'es', entry({ action: 'person.exported', details: { messages: 12000 } }))).toBe('Exportó 12.000 mensajes');
    expect(activitySentence(t, entry({ action: 'account.deletion_requested' }))).toBe('Lucía Martín pidió eliminar la cuenta');
    expect(activityDetails(t, 'es', entry({ action: 'privacy_settings.changed' }))).toBeNull();
    expect(activityDetails(t, 'es', entry({ action: 'privacy_settings.changed', details: { recordings: 30, messages: 365 } }))).toBe(
      'Conservación: Mensajes de WhatsApp: 12 meses y Grabaciones de llamadas: 30 días',
    );
  });

  it('says who did what in Spanish, names and accents as they are', () => {
    expect(activitySentence(t, entry({ object: { type: 'conversation', id: 'c1', label: 'Ana Pérez' } }))).toBe('Lucía Martín respondió en la conversación Ana Pérez');
    const carmen = { kind: 'member', _id: 'p1', name: 'Carmen Ruiz', email: 'c@x.es' } as const;
    expect(activitySentence(t, entry({ action: 'member.removed', actor: carmen, object: { type: 'member', id: 'p2', label: 'Lucía Martín' } }))).toBe('Carmen Ruiz quitó a Lucía Martín');
    expect(activitySentence(t, entry({ action: 'contacts.exported', actor: { kind: 'apiKey', _id: 'k1', name: 'CRM' } }))).toBe('Clave de API CRM exportó contactos');
    // Logged by id only: named from the team, else said in general.
    const names = new Map([['p2', 'Lucía Martín'], ['inv1', 'lucia@clinica.es']]);
    expect(activitySentence(t, entry({ action: 'member.role_changed', actor: carmen, object: { type: 'member', id: 'p2' } }), names)).toBe('Carmen Ruiz cambió el rol de Lucía Martín');
    expect(activitySentence(t, entry({ action: 'member.invitation_revoked', actor: carmen, object: { type: 'member', id: 'inv1' } }), names)).toBe('Carmen Ruiz canceló la invitación a lucia@clinica.es');
    expect(activitySentence(t, entry({ action: 'member.removed', actor: carmen, object: { type: 'member', id: 'gone' } }), names)).toBe('Carmen Ruiz quitó a un miembro');
    expect(activitySentence(t, entry({ object: { type: 'conversation', id: 'c1' } }), names)).toBe('Lucía Martín respondió en una conversación');
    expect(activitySentence(t, entry({ action: 'member.invited', actor: carmen, object: { type: 'member', id: null } }))).toBe('Carmen Ruiz invitó a una persona');
  });

  it('in English too', async () => {
    await i18n.changeLanguage('en');
    expect(activitySentence(t, entry({ action: 'member.signed_in' }))).toBe('Lucía Martín signed in');
    await i18n.changeLanguage('es');
  });
});

describe('activity filters', () => {
  it("turns a picked day into the instants it starts and ends in the account's zone", () => {
    expect(zonedDayBound('2026-11-28', 'Europe/Madrid')).toBe('2026-11-27T23:00:00.000Z');
    expect(zonedDayBound('2026-11-28', 'Europe/Madrid', true)).toBe('2026-11-28T22:59:59.999Z');
    // Summer time, and the day the clocks go back (25 hours).
    expect(zonedDayBound('2026-07-01', 'Europe/Madrid')).toBe('2026-06-30T22:00:00.000Z');
    expect(zonedDayBound('2026-10-25', 'Europe/Madrid', true)).toBe('2026-10-25T22:59:59.999Z');
    expect(zonedDayBound('2026-11-28', 'America/Mexico_City')).toBe('2026-11-28T06:00:00.000Z');
    expect(zonedDayBound('28/11/2026', 'Europe/Madrid')).toBeUndefined();
  });

  it('sends only the filters that are set, and the cursor', () => {
    expect(activitySearch({ member: '', action: '' })).toBe('');
    expect(activitySearch({ member: 'p2', action: 'conversation.replied' }, 'abc')).toBe('?member=p2&action=conversation.replied&cursor=abc');
  });

  it("recognises the seat limit's message whatever the number", () => {
    expect(isSeatsFull(teamMessages.seatsFull(5))).toBe(true);
    expect(isSeatsFull(teamMessages.seatsFullForInvitee)).toBe(false);
    expect(isSeatsFull(undefined)).toBe(false);
  });
});
