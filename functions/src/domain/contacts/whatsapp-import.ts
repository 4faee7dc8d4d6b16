/**
 * Contacts from WhatsApp customers, through the one create path (plan limit reserved first):
 * Import from WhatsApp (every customer whose number is not in the directory yet, their
 * conversations linked) and the contact of a customer who just wrote (the inbound worker).
 */
import type { WhatsAppImportResult } from '../../contract/whatsapp.js';
import { mapLimit } from '../../lib/map-limit.js';
import type { ContactContext } from './context.js';
import { createContacts } from './create-path.js';
import type { WhatsAppCustomer } from './ports.js';
import { whatsappDraft } from './records.js';
import { toE164 } from './text.js';

export function contactWhatsAppImport(ctx: ContactContext) {
  // A number without its prefix is read in the account's country, as everywhere else (issue 19).
  const e164Of = (phone: string, country: string) => (phone ? toE164(phone, country) : null);
  // WhatsApp's own numbers arrive as +<wa_id>: the profile is read only when one has no prefix.
  const countryFor = async (userId: string, phones: string[]) =>
    phones.some((p) => p && !p.startsWith('+')) ? ctx.accountCountry(userId) : ctx.defaultCountry;

  return {
    /**
     * Import from WhatsApp: a contact (source whatsapp_import, isWAContact) for every customer of
     * the user's conversations whose phone number is not in the directory yet (premium-gated like
     * a manual add); the customers' conversations are linked to their contact. Customers without
     * a phone number are skipped.
     */
    async importFromWhatsApp(userId: string): Promise<WhatsAppImportResult> {
      const whatsapp = ctx.whatsapp;
      if (!whatsapp) throw new Error('importFromWhatsApp needs the WhatsApp customers port');
      const customers: WhatsAppCustomer[] = [];
      for await (const page of whatsapp.customers(userId)) customers.push(...page);
      const country = await countryFor(userId, customers.map((c) => c.phone));
      const byPhone = new Map<string, WhatsAppCustomer[]>();
      for (const customer of customers) {
        const phone = e164Of(customer.phone, country);
        if (phone) byPhone.set(phone, [...(byPhone.get(phone) ?? []), customer]);
      }
      const owners = await ctx.contacts.phoneOwners(userId, [...byPhone.keys()]);
      const missing = [...byPhone.keys()].filter((phone) => !owners.has(phone));
      const importedAt = ctx.now().toISOString();
      const drafts = missing.map((phone) => whatsappDraft(phone, byPhone.get(phone)!.find((c) => c.name)?.name ?? '', importedAt));
      // Premium-gated even when there is nothing to add: reserving 0 checks the subscription (402).
      if (drafts.length === 0) await ctx.usage.reserve(userId, 'contacts', 0);
      const outcomes = await createContacts(ctx, userId, drafts, false);
      let imported = 0;
      outcomes.forEach((outcome, i) => {
        if (outcome.kind === 'created') {
          imported++;
          owners.set(missing[i]!, outcome.contact.id);
        } else if (outcome.kind === 'duplicate') owners.set(missing[i]!, outcome.existingContactId);
      });
      const links = [...byPhone].flatMap(([phone, list]) => {
        const contactId = owners.get(phone);
        return contactId ? list.filter((c) => c.contactId !== contactId).map((c) => ({ waId: c.waId, contactId })) : [];
      });
      await mapLimit(links, ctx.importConcurrency, async ({ waId, contactId }) => {
        try {
          await whatsapp.linkContact(userId, waId, contactId);
        } catch (error) {
          ctx.onError('linking WhatsApp conversations to a contact failed', error);
        }
      });
      return { imported, skipped: customers.length - imported };
    },

    /**
     * The contact of a customer who wrote on WhatsApp (the inbound worker): the contact holding
     * the phone number, or a new one (source whatsapp_import, isWAContact). Null when none can be
     * made (no subscription, the plan's contact limit, a customer with no phone number… the
     * message is stored anyway).
     */
    async upsertFromWhatsApp(userId: string, customer: { waId: string; phone: string; name: string }): Promise<string | null> {
      if (!customer.phone) return null;
      const phone = e164Of(customer.phone, await countryFor(userId, [customer.phone]));
      if (!phone) return null;
      const existing = (await ctx.contacts.phoneOwners(userId, [phone])).get(phone);
      if (existing) return existing;
      const [outcome] = await createContacts(ctx, userId, [whatsappDraft(phone, customer.name, ctx.now().toISOString())], false);
      if (outcome?.kind === 'created') return outcome.contact.id;
      if (outcome?.kind === 'duplicate') return outcome.existingContactId;
      return null;
    },
  };
}
