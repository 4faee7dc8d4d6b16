/** The settings object as PUT takes it (the server's updatedAt left out), and the minimum-notice choices. */
import type { BookingSettings, BookingSettingsInput } from '@agentdesk/functions/contract';

export function settingsInput(settings: BookingSettings, patch: Partial<BookingSettingsInput> = {}): BookingSettingsInput {
  return {
    timeZone: settings.timeZone,
    minNoticeMinutes: settings.minNoticeMinutes,
    maxAdvanceDays: settings.maxAdvanceDays,
    slotStepMinutes: settings.slotStepMinutes,
    closures: settings.closures.map((c) => ({ _id: c._id, from: c.from, to: c.to, reason: c.reason })),
    remindersEnabled: settings.remindersEnabled,
    reminderHours: settings.reminderHours,
    confirmationTemplate: settings.confirmationTemplate,
    reminderTemplate: settings.reminderTemplate,
    emailOwner: settings.emailOwner,
    ...patch,
  };
}

/** Minimum notice choices in minutes (none, 15 min … a week), with the current value when it is another. */
export function noticeChoices(current: number): number[] {
  const base = [0, 15, 30, 60, 120, 240, 720, 1440, 2880, 10080];
  return base.includes(current) ? base : [...base, current].sort((a, b) => a - b);
}
