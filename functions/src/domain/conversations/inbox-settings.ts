/**
 * GET/PUT /api/inbox-settings (issue 17): the AI's idle resume time and how escalations reach the
 * owner. The alert number is stored in E.164 like the contacts' numbers: typed with + or 00 it is
 * international; without a prefix it is read in the account's country (issue 19), then in the
 * country of the user's own WhatsApp business number (a Spanish business typing 612 345 678 on a
 * US-default deployment), then as digits that already start with a country code (34612345678).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/core';
import { inboxMessages, type InboxSettings, type InboxSettingsInput } from '../../contract/inbox.js';
import { phoneMetadata } from '../contacts/phone-metadata.js';
import { toE164 } from '../contacts/text.js';
import { ValidationError } from '../errors.js';
import type { InboxSettingsRepository } from './ports.js';

export interface InboxSettingsServiceDeps {
  settings: InboxSettingsRepository;
  /** The account's country for numbers typed without a prefix (profile, else CONTACTS_DEFAULT_COUNTRY). */
  accountCountry(userId: string): Promise<string>;
  /** The user's connected WhatsApp business number (E.164), or null. */
  businessNumber(userId: string): Promise<string | null>;
}

/** The ISO country of an E.164 number, or null. */
export function countryOf(e164: string): string | null {
  return parsePhoneNumberFromString(e164, {}, phoneMetadata)?.country ?? null;
}

/** E.164 of an alert number as typed, trying each country in turn, then the digits as international; null when none fits. */
export function alertNumberE164(input: string, countries: readonly string[]): string | null {
  const typed = input.trim();
  if (!typed) return null;
  for (const country of countries) {
    const e164 = toE164(typed, country);
    if (e164) return e164;
  }
  const digits = typed.replace(/[\s().-]/g, '');
  return /^\d{8,15}$/.test(digits) ? toE164(`+${digits}`, countries[0] ?? 'US') : null;
}

export function createInboxSettingsService(deps: InboxSettingsServiceDeps) {
  return {
    get(userId: string): Promise<InboxSettings> {
      return deps.settings.get(userId);
    },

    async put(userId: string, input: InboxSettingsInput): Promise<InboxSettings> {
      let alertWhatsappNumber = '';
      if (input.alertWhatsappNumber) {
        const [account, business] = await Promise.all([deps.accountCountry(userId), deps.businessNumber(userId).catch(() => null)]);
        const businessCountry = business ? countryOf(business) : null;
        const countries = [account, ...(businessCountry && businessCountry !== account ? [businessCountry] : [])];
        const e164 = alertNumberE164(input.alertWhatsappNumber, countries);
        if (!e164) throw new ValidationError(inboxMessages.alertNumberInvalid, 'alertWhatsappNumber');
        alertWhatsappNumber = e164;
      }
      return deps.settings.put(userId, { aiResumeAfterHours: input.aiResumeAfterHours, alertByEmail: input.alertByEmail, alertWhatsappNumber });
    },
  };
}

export type InboxSettingsService = ReturnType<typeof createInboxSettingsService>;
