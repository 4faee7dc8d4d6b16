import { describe, expect, it } from 'vitest';
import en from './i18n/en.json';
import es from './i18n/es.json';
import { keyPaths as keys } from '../../../i18n/keyPaths';
import { noticeChoices, settingsInput } from './settings';

describe('bookings setup strings', () => {
  it('has every key in Spanish, with the issue’s words', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
    expect([es.title, es.wizard.title, es.tabs.staff, es.calendar]).toEqual(['Configuración de citas', 'Configura tus citas', 'Profesionales y salas', 'Calendario']);
    expect(es.days.mon).toBe('Lunes');
  });
});

describe('booking settings as sent', () => {
  const settings = {
    timeZone: 'Europe/Madrid',
    minNoticeMinutes: 120,
    maxAdvanceDays: 60,
    slotStepMinutes: 15 as const,
    closures: [{ _id: 'c1', from: '2026-12-24', to: '2026-12-26', reason: 'Navidad' }],
    remindersEnabled: true,
    reminderHours: 24,
    confirmationTemplate: null,
    reminderTemplate: { name: 'recordatorio_cita', language: 'es' },
    emailOwner: false,
    updatedAt: '2026-11-28T10:00:00.000Z',
  };

  it('leaves out what the server keeps (updatedAt) and applies a change', () => {
    const input = settingsInput(settings, { closures: [] });
    expect(input).not.toHaveProperty('updatedAt');
    expect(input.closures).toEqual([]);
    expect(settingsInput(settings).closures).toEqual(settings.closures);
  });

  it('offers the usual notices and keeps a value set elsewhere', () => {
    expect(noticeChoices(120)).toContain(120);
    expect(noticeChoices(45)).toEqual([0, 15, 30, 45, 60, 120, 240, 720, 1440, 2880, 10080]);
  });
});
