/** What the contacts modules share: the ports and settings of createContactService, defaults filled in. */
import type { OptOuts } from '../privacy/ports.js';
import type { ContactLinks, ContactRepository, ContactUsage, WhatsAppCustomers } from './ports.js';
import { randomIdSuffix } from './contact-id.js';

export interface ContactDeps {
  contacts: ContactRepository;
  usage: ContactUsage;
  links: ContactLinks;
  /** The WhatsApp customers of the user's conversations (Import from WhatsApp). */
  whatsapp?: WhatsAppCustomers;
  /** ISO country for numbers typed without a prefix when the account has none (config CONTACTS_DEFAULT_COUNTRY). */
  defaultCountry: string;
  /** The account's country (issue 19: profile `country`, else the default); absent = `defaultCountry`. */
  accountCountry?: (userId: string) => Promise<string>;
  /** The account's language and time zone (issue 29: the export's headers, words and dates); absent = English, UTC. */
  accountLocale?: (userId: string) => Promise<{ language?: string; timeZone?: string }>;
  now?: () => Date;
  /** 6 random base-36 characters (the id suffix). */
  randomSuffix?: () => string;
  /** Parallel writes of an import. */
  importConcurrency?: number;
  onError?: (message: string, error: unknown) => void;
  /** Issue 33: customers' opt-outs shown on the list (one BatchGetItem a page) and the detail; absent = not shown. */
  optOuts?: Pick<OptOuts, 'get' | 'many'>;
}

export type ContactContext = Required<Omit<ContactDeps, 'whatsapp' | 'optOuts'>> & Pick<ContactDeps, 'whatsapp' | 'optOuts'>;

export function contactContext(deps: ContactDeps): ContactContext {
  return {
    ...deps,
    now: deps.now ?? (() => new Date()),
    randomSuffix: deps.randomSuffix ?? randomIdSuffix,
    accountCountry: deps.accountCountry ?? (() => Promise.resolve(deps.defaultCountry)),
    accountLocale: deps.accountLocale ?? (() => Promise.resolve({})),
    importConcurrency: deps.importConcurrency ?? 8,
    onError: deps.onError ?? (() => undefined),
  };
}
