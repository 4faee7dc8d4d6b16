/** What the contacts modules share: the ports and settings of createContactService, defaults filled in. */
import type { ContactLinks, ContactRepository, ContactUsage, WhatsAppCustomers } from './ports.js';
import { randomIdSuffix } from './contact-id.js';

export interface ContactDeps {
  contacts: ContactRepository;
  usage: ContactUsage;
  links: ContactLinks;
  /** The WhatsApp customers of the user's conversations (Import from WhatsApp). */
  whatsapp?: WhatsAppCustomers;
  /** ISO-8601 country code for numbers typed without a prefix (config CONTACTS_DEFAULT_COUNTRY). */
  defaultCountry: string;
  now?: () => Date;
  /** 6 random base-36 characters (the id suffix). */
  randomSuffix?: () => string;
  /** Parallel writes of an import. */
  importConcurrency?: number;
  onError?: (message: string, error: unknown) => void;
}

export type ContactContext = Required<Omit<ContactDeps, 'whatsapp'>> & Pick<ContactDeps, 'whatsapp'>;

export function contactContext(deps: ContactDeps): ContactContext {
  return {
    ...deps,
    now: deps.now ?? (() => new Date()),
    randomSuffix: deps.randomSuffix ?? randomIdSuffix,
    importConcurrency: deps.importConcurrency ?? 8,
    onError: deps.onError ?? (() => undefined),
  };
}
