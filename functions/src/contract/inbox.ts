/**
 * Inbox settings (issue 17: a trustworthy inbox): how long the AI stays quiet after a person took
 * over a conversation, and how the owner is alerted when a conversation or call is escalated.
 * GET/PUT /api/inbox-settings (the whole object, like the voice settings).
 */

export const INBOX_LIMITS = {
  aiResumeAfterHours: { min: 1, max: 168 },
} as const;

export interface InboxSettings {
  /** Hours after a person's last reply before the AI answers that conversation again on its own. */
  aiResumeAfterHours: number;
  /** E-mail the owner (their account e-mail) when a conversation or call is escalated. */
  alertByEmail: boolean;
  /** The owner's own WhatsApp number (E.164) that also gets escalation alerts; '' = none. */
  alertWhatsappNumber: string;
}

export const INBOX_DEFAULTS: InboxSettings = { aiResumeAfterHours: 12, alertByEmail: true, alertWhatsappNumber: '' };

export const inboxMessages = {
  settingsSaved: 'Inbox settings saved',
  resumeHoursInvalid: `The AI resumes after ${INBOX_LIMITS.aiResumeAfterHours.min} to ${INBOX_LIMITS.aiResumeAfterHours.max} hours`,
  alertNumberInvalid: 'Enter a valid WhatsApp number for alerts',
} as const;
