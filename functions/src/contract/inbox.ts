/**
 * Inbox settings (issue 17: a trustworthy inbox): how long the AI stays quiet after a person took
 * over a conversation, and how the owner is alerted when a conversation or call is escalated.
 * GET/PUT /api/inbox-settings (the whole object, like the voice settings).
 */
import * as z from 'zod/mini';
import './zod-locale.js';

export const INBOX_LIMITS = {
  aiResumeAfterHours: { min: 1, max: 168 },
  alertWhatsappNumber: 40,
} as const;

export interface InboxSettings {
  /** Hours after a person's last reply before the AI answers that conversation again on its own. */
  aiResumeAfterHours: number;
  /** E-mail alerts when a conversation or call is escalated: the account-wide switch (issue 32: each recipient's own alert settings may still turn theirs off). */
  alertByEmail: boolean;
  /** The owner's own WhatsApp number (E.164) that also gets escalation alerts; '' = none. */
  alertWhatsappNumber: string;
}

export const INBOX_DEFAULTS: InboxSettings = { aiResumeAfterHours: 12, alertByEmail: true, alertWhatsappNumber: '' };

export const inboxMessages = {
  settingsSaved: 'Inbox settings saved',
  resumeHoursInvalid: `The AI resumes after ${INBOX_LIMITS.aiResumeAfterHours.min} to ${INBOX_LIMITS.aiResumeAfterHours.max} hours`,
  alertNumberInvalid: 'Enter a valid WhatsApp number for alerts',
  alertByEmailInvalid: 'Alert by e-mail must be true or false',
  unknownSetting: (key: string) => `Unknown inbox setting: ${key}`,
} as const;

const { min, max } = INBOX_LIMITS.aiResumeAfterHours;

/**
 * PUT /api/inbox-settings: the whole object, no other key. The number is checked for its shape
 * here; the domain (domain/conversations/inbox-settings.ts) normalises it to E.164 like the
 * contacts' numbers ('' = no WhatsApp alert).
 */
export const inboxSettingsRequest = z
  .strictObject(
    {
      aiResumeAfterHours: z
        .number({ error: inboxMessages.resumeHoursInvalid })
        .check(z.refine((n) => Number.isInteger(n) && n >= min && n <= max, inboxMessages.resumeHoursInvalid)),
      alertByEmail: z.boolean({ error: inboxMessages.alertByEmailInvalid }),
      alertWhatsappNumber: z
        .string({ error: inboxMessages.alertNumberInvalid })
        .check(z.trim(), z.maxLength(INBOX_LIMITS.alertWhatsappNumber, inboxMessages.alertNumberInvalid), z.regex(/^[\d\s()+.-]*$/, inboxMessages.alertNumberInvalid)),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? inboxMessages.unknownSetting(issue.keys.join(', ')) : undefined) },
  );
export type InboxSettingsInput = z.infer<typeof inboxSettingsRequest>;
