/**
 * One inbound WhatsApp message stored and claimed for its reply (the whatsapp-inbound pipeline,
 * inbound.ts): the customer's contact is looked up beside (it never fails the message) → the
 * customer's conversation is found or opened (one per customer, even under concurrency) → the
 * message is stored and its reply claimed in one conditional write (Meta redelivers: a wamid is
 * stored once; the SQS retry of a crashed worker takes its own claim over) → the conversation's
 * activity is recorded while the reply is prepared.
 */
import { lastMessageOf, type ConversationRepository, type MessageRepository, type StoredConversation, type StoredMessage } from '../conversations/ports.js';
import { mediaKindOf } from '../../contract/whatsapp-media.js';
import type { InboundCustomer, ParsedChange, ParsedInboundMessage } from './parse-delivery.js';

/**
 * A customer's media as stored with the message (issue 31): 'pending' until the worker fetched it
 * (media/fetch.ts); a media message Meta sent without a media id can never be fetched.
 */
function storedMedia(m: ParsedInboundMessage): StoredMessage['media'] {
  if (!m.media) return undefined;
  if (!mediaKindOf(m.type)) return m.media;
  return m.media.id ? { ...m.media, state: 'pending' } : { ...m.media, state: 'failed', failure: 'not_found' };
}

export interface InboundContacts {
  /** The contact of a WhatsApp customer (found by phone, or created: whatsapp_import, isWAContact); null when it cannot be made. */
  upsertFromWhatsApp(userId: string, customer: { waId: string; phone: string; name: string }): Promise<string | null>;
}

export interface InboundStoreDeps {
  conversations: ConversationRepository;
  messages: MessageRepository;
  contacts: InboundContacts;
  /** 26-character time-sortable id. */
  newId(now: number): string;
  now?: () => number;
  /** How long a reply claim is held before another worker may take it over (shorter than the queue's visibility timeout). */
  replyLeaseMs?: number;
  onError?: (message: string, error: unknown) => void;
}

/**
 * What became of an inbound message: already answered (`duplicate`), being answered by another
 * worker (`busy`), or stored with its reply claimed here (`claimed`).
 */
export type StoredInbound =
  | { state: 'duplicate' | 'busy'; conversationId: string }
  | {
      state: 'claimed';
      conversation: StoredConversation;
      message: StoredMessage;
      /** The conversation's activity and contact link, settling while the reply is prepared: await it after the reply. */
      recorded: Promise<unknown>;
    };

/** When the customer wrote (Meta's timestamp, ISO) as the window counts it: no later than `now` (epoch ms). */
export function customerWroteAt(timestamp: string, now: number): string {
  const at = Date.parse(timestamp);
  return new Date(Number.isFinite(at) ? Math.min(at, now) : now).toISOString();
}

export function createInboundStore(deps: InboundStoreDeps) {
  const now = deps.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  const onError = deps.onError ?? (() => undefined);
  const leaseMs = deps.replyLeaseMs ?? 60_000;

  async function contactFor(userId: string, customer: InboundCustomer): Promise<string> {
    try {
      return (await deps.contacts.upsertFromWhatsApp(userId, customer)) ?? '';
    } catch (error) {
      onError('WhatsApp contact could not be made; the message is kept', error);
      return '';
    }
  }

  return {
    /** Stores `m` (of `change`) for the user; `owner` is the queue message that claims its reply. */
    async store(userId: string, change: ParsedChange, m: ParsedInboundMessage, owner: string): Promise<StoredInbound> {
      const customerRef = { ...m.customer, contactId: '', phoneNumberId: change.phoneNumberId };
      // The customer's contact (found, or made, by phone number; customers without one get none) is
      // looked up beside the conversation and kept off the reply's path: a new customer's contact is
      // linked to the conversation when it is ready, the messages stored before that carry none.
      let contactReady: string | undefined;
      const contactLookup = (m.customer.phone ? contactFor(userId, m.customer) : Promise.resolve('')).then((id) => (contactReady = id));
      let { conversation } = await deps.conversations.findOrOpen(userId, customerRef, iso());
      const known = conversation.contactId;
      const contactId = known || contactReady || '';
      const linking = contactLookup.then(async (id) => {
        if (id && id !== known) {
          await deps.conversations.linkContact(userId, m.customer.waId, id).catch((error: unknown) => onError('linking the contact failed', error));
        }
      });

      const storedAt = now();
      const inbound: StoredMessage = {
        id: `${conversation.id}-${deps.newId(storedAt)}`,
        conversationId: conversation.id,
        waMessageId: m.wamid,
        contactId,
        type: m.type,
        hasMedia: m.media !== undefined,
        ...(m.media ? { media: storedMedia(m) } : {}),
        ...(m.location ? { location: m.location } : {}),
        ...(m.contactCards ? { contactCards: m.contactCards } : {}),
        ...(m.interactiveReply ? { interactiveReply: m.interactiveReply } : {}),
        fromMe: false,
        from: m.customer.phone || m.customer.waId,
        to: change.displayPhoneNumber ? `+${change.displayPhoneNumber.replace(/\D/g, '')}` : change.phoneNumberId,
        phoneNumberId: { id: change.phoneNumberId, name: change.displayPhoneNumber },
        status: 'delivered',
        timestamp: m.timestamp,
        body: m.body,
        createdAt: new Date(storedAt).toISOString(),
      };
      // A new message is stored and claimed for the reply in one conditional write.
      const stored = await deps.messages.insertInbound(userId, inbound, { owner, now: storedAt, leaseMs });
      if (!stored.isNew) {
        // Handled, or waiting for the answer action (issue 34): a redelivery has nothing to answer.
        if (stored.state === 'handled' || stored.state === 'waiting') {
          await linking;
          return { state: 'duplicate', conversationId: stored.message.conversationId };
        }
        if (stored.message.conversationId !== conversation.id) {
          conversation = (await deps.conversations.get(userId, stored.message.conversationId)) ?? conversation;
        }
      }
      const message = stored.message;
      // Recorded on the conversation while the reply is prepared; idempotent on a retry (the count
      // only moves for a new message, lastMessage only forward).
      const touched = deps.conversations
        .touch(userId, conversation.id, {
          lastMessage: lastMessageOf(message),
          lastMessageAt: message.createdAt,
          // The 24-hour window counts from when the customer wrote as Meta stamps it, not from when
          // the delivery reached us (a late redelivery); never from the future (clock skew).
          lastInboundAt: customerWroteAt(message.timestamp, storedAt),
          messageCountDelta: stored.isNew ? 1 : 0,
          // Unread until the owner opens it (one atomic ADD with the activity; a redelivery adds nothing).
          ...(stored.isNew ? { unreadDelta: 1 } : {}),
          ...(m.customer.name ? { customerName: m.customer.name } : {}),
          ...(contactId ? { contactId } : {}),
        })
        .then((c) => c ?? conversation);

      const claimed = stored.isNew || (await deps.messages.claimReply(userId, m.wamid, owner, now(), leaseMs));
      if (!claimed) {
        await Promise.all([touched, linking]);
        return { state: 'busy', conversationId: conversation.id };
      }
      return { state: 'claimed', conversation, message, recorded: Promise.all([touched, linking]) };
    },
  };
}

export type InboundStore = ReturnType<typeof createInboundStore>;
