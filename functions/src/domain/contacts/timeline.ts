/**
 * A contact's timeline (issue 17, the contact page's "Conversations & Calls" card): its calls,
 * WhatsApp conversations and (issue 30) bookings, newest first. Calls are the calls FROM the
 * contact's number (so calls made before the caller was saved as a contact are listed too);
 * bookings are the changes of the bookings of the contact's number (one item each: booked,
 * moved, cancelled…, recorded by domain/bookings/contact-timeline.ts); conversations are those
 * linked to the contact. At most `limit` items; `hasMore` when older ones exist beyond them.
 */
import { contactMessages } from '../../contract/contacts.js';
import type { ContactTimeline, ContactTimelineItem } from '../../contract/contact-timeline.js';
import { NotFoundError } from '../errors.js';
import { isContactId } from './contact-id.js';

/** The reads behind the timeline (adapter: adapters/dynamo/contact-timeline.ts). */
export interface ContactTimelineReader {
  /** The contact's id and E.164 number ('' = none), or null when it does not exist. */
  contact(userId: string, id: string): Promise<{ id: string; phoneNumber: string } | null>;
  /** The newest `limit` calls and booking changes of this number and the newest `limit` conversations of the contact, each newest first. */
  items(
    userId: string,
    who: { contactId: string; phoneNumber: string },
    limit: number,
  ): Promise<{ calls: ContactTimelineItem[]; conversations: ContactTimelineItem[]; bookings?: ContactTimelineItem[]; more: boolean }>;
}

export function createContactTimeline(deps: { reader: ContactTimelineReader }) {
  return {
    async timeline(userId: string, id: string, limit: number): Promise<ContactTimeline> {
      const contact = isContactId(id) ? await deps.reader.contact(userId, id) : null;
      if (!contact) throw new NotFoundError(contactMessages.notFound);
      const { calls, conversations, bookings = [], more } = await deps.reader.items(userId, { contactId: contact.id, phoneNumber: contact.phoneNumber }, limit);
      const merged = [...calls, ...conversations, ...bookings].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
      return { items: merged.slice(0, limit), hasMore: more || merged.length > limit };
    },
  };
}

export type ContactTimelineService = ReturnType<typeof createContactTimeline>;
