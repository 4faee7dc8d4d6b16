/**
 * Patients' data under the owner's control (issue 33): erase and export one person, retention,
 * account deletion, the AI and recording notices, opt-outs. Used by the handlers (validation), the
 * workers, the frontend (types, forms) and tests. Browser-safe.
 *
 * A person is who the business talks to: a contact, or a phone number never saved (a WhatsApp
 * customer, a caller). Everything held about them is found by keys (their contact id, their E.164
 * number and its WhatsApp id), never by a Scan.
 */
import * as z from 'zod/mini';
import './zod-locale.js';

// ---- Retention ----

/**
 * Days an account may keep each kind of data. The same choices as the media bucket's lifecycle
 * tags (`retention=30d` … `730d`, adapters/uploads-lifecycle.ts), so every kind is enforced by
 * the platform (DynamoDB TTL, S3 lifecycle), never by a sweep.
 */
export const RETENTION_DAY_CHOICES = [30, 90, 180, 365, 730] as const;
export type RetentionDays = (typeof RETENTION_DAY_CHOICES)[number];
export const RETENTION_KINDS = ['messages', 'callTranscripts', 'recordings', 'media'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];
export type RetentionSettings = Record<RetentionKind, RetentionDays>;

/**
 * Defaults (justified in the README's "Your customers' data"): conversations and call transcripts
 * 24 months (a clinic's follow-up of a treatment; Spain's patient-record law asks for longer only
 * for the clinical record, which lives outside AgentDesk); recordings 90 days (the most sensitive
 * data, needed only to settle a dispute about a call); media 12 months (photos and documents a
 * patient sent, useful for the next visit, rarely after).
 */
export const DEFAULT_RETENTION: RetentionSettings = { messages: 730, callTranscripts: 730, recordings: 90, media: 365 };

// ---- AI and recording notices (EU AI Act Art. 50) ----

/** Countries whose accounts get the notices on by default: the EU and the EEA. */
export const NOTICE_DEFAULT_COUNTRIES: readonly string[] = [
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL',
  'PT', 'RO', 'SK', 'SI', 'ES', 'SE', 'IS', 'LI', 'NO',
];
export const noticesOnByDefault = (country: string | null | undefined): boolean => !!country && NOTICE_DEFAULT_COUNTRIES.includes(country.toUpperCase());

export type NoticeLanguage = 'en' | 'es';
/** `{business}` is replaced by the account's business name (its name when none). */
export const DEFAULT_NOTICE_TEXTS: Record<'ai' | 'recording', Record<NoticeLanguage, string>> = {
  ai: {
    en: 'You are talking to an AI assistant of {business}. You can ask for a person at any time.',
    es: 'Estás hablando con un asistente de inteligencia artificial de {business}. Puedes pedir hablar con una persona en cualquier momento.',
  },
  recording: {
    en: 'This call is recorded.',
    es: 'Esta llamada se está grabando.',
  },
};
export const NOTICE_TEXT_MAX = 300;

export interface NoticeSettings {
  /** The first agent message of each WhatsApp conversation and each call's greeting say it is an AI. */
  ai: boolean;
  /** A recorded call says so before anything else. */
  recording: boolean;
  /** The wording, per language (the agent's language picks one). */
  aiText: Record<NoticeLanguage, string>;
  recordingText: Record<NoticeLanguage, string>;
}

// ---- Opt-outs ----

/** Whole-message keywords (trimmed, case-, accent- and punctuation-insensitive): the customer stops or restarts reminders and templates. */
export const DEFAULT_STOP_KEYWORDS = ['BAJA', 'STOP', 'UNSUBSCRIBE', 'CANCELAR', 'DARME DE BAJA'] as const;
export const DEFAULT_START_KEYWORDS = ['ALTA', 'START', 'UNSTOP', 'DARME DE ALTA'] as const;
export const OPT_OUT_KEYWORDS_MAX = 20;
export const OPT_OUT_KEYWORD_MAX_LENGTH = 30;

/** How a message is compared with the keywords: NFD without marks, upper case, punctuation and emoji dropped, spaces collapsed. */
export function foldKeyword(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^\p{L}\p{N} ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface OptOutSettings {
  stopKeywords: string[];
  startKeywords: string[];
}

/** A customer's opt-out as the contact and the inbox show it; null = receives reminders and templates. */
export interface OptOutState {
  at: string;
  /** The word they wrote (as folded), or 'owner' when set from the dashboard. */
  keyword: string;
}

// ---- The account's privacy settings (GET/PUT /api/privacy/settings) ----

export interface PrivacySettings {
  retention: RetentionSettings;
  notices: NoticeSettings;
  optOut: OptOutSettings;
}

/** Built by a pure-annotated call (its texts interpolate constants, which esbuild would otherwise keep): a bundle that shows none of them drops them. */
export const privacyMessages = /* @__PURE__ */ (() =>
  ({
    settingsInvalid: 'Invalid privacy settings',
    retentionInvalid: `Retention must be one of ${RETENTION_DAY_CHOICES.join(', ')} days`,
    noticeTextInvalid: `A notice must have between 1 and ${NOTICE_TEXT_MAX} characters`,
    keywordsInvalid: `Up to ${OPT_OUT_KEYWORDS_MAX} keywords of 1 to ${OPT_OUT_KEYWORD_MAX_LENGTH} characters each`,
    keywordInBothLists: 'A keyword cannot both stop and restart messages',
    settingsSaved: 'Privacy settings saved',
    /** PUT when a retention changed: what it does to what is already stored (issue 33). */
    retentionSaved:
      'Privacy settings saved. The new retention applies to everything: what is already stored is re-dated in the background (within minutes), and what is now older than it is deleted.',
    personRequired: 'Choose a contact or enter a phone number',
    personBoth: 'Choose a contact or enter a phone number, not both',
    personNotFound: 'Nothing is stored about this person',
    personIsMember: 'This phone number or e-mail belongs to a member of your team. Remove them from the team first.',
    confirmationInvalid: 'Type the confirmation word exactly as shown',
    erasureStarted: 'Erasure started',
    exportStarted: 'Export started',
    jobNotFound: 'Request not found',
    exportExpired: 'This export has expired. Export the data again.',
    jobFailed: 'This request could not be completed. Start it again.',
    accountDeletionStarted: 'Your account is being deleted. You will receive a final e-mail when it is done.',
    /** A function (not a `{{0}}` string) so the frontend's Spanish pattern is checked against it (app/serverTexts.test.ts). */
    optedOut: (word: string) => `This customer asked not to receive messages (they wrote ${word}). They can write START or ALTA to receive them again.`,
    /** optedOut when the owner marked it (PUT /api/privacy/opt-out, keyword 'owner'). */
    optedOutByOwner: 'This customer asked not to receive messages (your team marked it). They can write START or ALTA to receive them again.',
    optedOutReply: {
      en: 'You will not receive any more reminders or messages from us. Write START to receive them again.',
      es: 'No recibirás más recordatorios ni mensajes nuestros. Escribe ALTA para volver a recibirlos.',
    },
    optedInReply: {
      en: 'You will receive our reminders and messages again. Write STOP to stop them.',
      es: 'Volverás a recibir nuestros recordatorios y mensajes. Escribe BAJA para dejar de recibirlos.',
    },
  }) as const)();

/*
 * The schemas are built by functions and each export by a pure-annotated call: a bundle that imports
 * only the constants above (the voice webhook, a first-contact function held to 300 KB) drops them
 * and zod's union/literal/refine code. (A pure call whose arguments read a property, such as
 * privacyMessages.x, would be kept: esbuild counts a property read as a possible side effect.)
 */
const retentionDays = () => z.union(RETENTION_DAY_CHOICES.map((d) => z.literal(d)), { error: privacyMessages.retentionInvalid });
const noticeText = () =>
  z.string({ error: privacyMessages.noticeTextInvalid }).check(
    z.trim(),
    z.minLength(1, privacyMessages.noticeTextInvalid),
    z.maxLength(NOTICE_TEXT_MAX, privacyMessages.noticeTextInvalid),
  );
const keywordList = () =>
  z
    .array(
      z.string({ error: privacyMessages.keywordsInvalid }).check(
        z.trim(),
        z.minLength(1, privacyMessages.keywordsInvalid),
        z.maxLength(OPT_OUT_KEYWORD_MAX_LENGTH, privacyMessages.keywordsInvalid),
      ),
      { error: privacyMessages.keywordsInvalid },
    )
    .check(z.minLength(1, privacyMessages.keywordsInvalid), z.maxLength(OPT_OUT_KEYWORDS_MAX, privacyMessages.keywordsInvalid));

/**
 * PUT /api/privacy/settings: the whole object (the page saves it at once). The stored object is
 * read without it by domain/privacy/settings.ts parseStoredPrivacySettings (same rules, unit-tested side by side).
 */
export const privacySettingsRequest = /* @__PURE__ */ (() =>
  z
    .strictObject(
      {
        retention: z.strictObject({
          messages: retentionDays(),
          callTranscripts: retentionDays(),
          recordings: retentionDays(),
          media: retentionDays(),
        }),
        notices: z.strictObject({
          ai: z.boolean(),
          recording: z.boolean(),
          aiText: z.strictObject({ en: noticeText(), es: noticeText() }),
          recordingText: z.strictObject({ en: noticeText(), es: noticeText() }),
        }),
        optOut: z.strictObject({ stopKeywords: keywordList(), startKeywords: keywordList() }),
      },
      { error: privacyMessages.settingsInvalid },
    )
    .check(
      z.refine((s) => {
        const stop = new Set(s.optOut.stopKeywords.map(foldKeyword));
        return !s.optOut.startKeywords.some((k) => stop.has(foldKeyword(k)));
      }, privacyMessages.keywordInBothLists),
    ))();

// ---- A person: lookup, erasure, export ----

export const PRIVACY_PHONE_MAX = 40;
/** A contact, or a phone number in any format the account's country reads (+34…, 612 34 56 78). */
const personRefShape = () => ({
  contactId: z.optional(z.string().check(z.minLength(1, privacyMessages.personRequired), z.maxLength(64, privacyMessages.personRequired))),
  phoneNumber: z.optional(z.string().check(z.minLength(1, privacyMessages.personRequired), z.maxLength(PRIVACY_PHONE_MAX, privacyMessages.personRequired))),
});
type OnePerson = { contactId?: string; phoneNumber?: string };
const onePerson = () =>
  [
    z.refine<OnePerson>((p) => !!p.contactId || !!p.phoneNumber, privacyMessages.personRequired),
    z.refine<OnePerson>((p) => !(p.contactId && p.phoneNumber), privacyMessages.personBoth),
  ] as const;
export const personRefRequest = /* @__PURE__ */ (() => z.object(personRefShape()).check(...onePerson()))();
export type PersonRefRequest = z.infer<typeof personRefRequest>;

/** The typed confirmation of an erasure (either language's word, any case). */
export const ERASE_CONFIRMATION = { en: 'ERASE', es: 'BORRAR' } as const;
/** The typed confirmation of the account's deletion. */
export const ACCOUNT_DELETE_CONFIRMATION = { en: 'DELETE', es: 'ELIMINAR' } as const;
const confirmationOf = (words: Record<string, string>) =>
  z
    .string({ error: privacyMessages.confirmationInvalid })
    .check(z.refine((v) => Object.values(words).includes(v.trim().toUpperCase()), privacyMessages.confirmationInvalid));

export const erasureRequest = /* @__PURE__ */ (() => z.object({ ...personRefShape(), confirmation: confirmationOf(ERASE_CONFIRMATION) }).check(...onePerson()))();
/** PUT /api/privacy/opt-out: the owner marks (or clears) a customer's opt-out, e.g. asked on the phone. */
export const optOutRequest = /* @__PURE__ */ (() =>
  z.object({ ...personRefShape(), optedOut: z.boolean({ error: privacyMessages.settingsInvalid }) }).check(...onePerson()))();
export const accountDeletionRequest = /* @__PURE__ */ (() => z.object({ confirmation: confirmationOf(ACCOUNT_DELETE_CONFIRMATION) }))();

/** What is held about one person, counted before an erasure or an export (and what a job erased or exported). */
export const PERSON_DATA_KINDS = ['contacts', 'conversations', 'messages', 'calls', 'recordings', 'bookings', 'media', 'notifications'] as const;
export type PersonDataKind = (typeof PERSON_DATA_KINDS)[number];
export type PersonDataCounts = Record<PersonDataKind, number>;
export const emptyPersonDataCounts = (): PersonDataCounts => ({ contacts: 0, conversations: 0, messages: 0, calls: 0, recordings: 0, bookings: 0, media: 0, notifications: 0 });

/** POST /api/privacy/people/lookup: who the reference names and what would go. */
export interface PersonDataInventory {
  person: { contactId: string | null; name: string | null; phoneNumber: string | null };
  counts: PersonDataCounts;
  /** An open conversation or a live call: the erasure ends it first. */
  active: { conversation: boolean; call: boolean };
}

export const PRIVACY_JOB_KINDS = ['erasure', 'export'] as const;
export type PrivacyJobKind = (typeof PRIVACY_JOB_KINDS)[number];
export const PRIVACY_JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type PrivacyJobStatus = (typeof PRIVACY_JOB_STATUSES)[number];
/** The parts a person's job walks, in order (each idempotent: a re-run after a crash finishes what is left). */
export const PRIVACY_STEPS = ['calls', 'conversations', 'bookings', 'notifications', 'contact'] as const;
export type PrivacyStep = (typeof PRIVACY_STEPS)[number];

/** Minutes an export's download link works once signed (the file itself is deleted after a day). */
export const EXPORT_LINK_MINUTES = 15;
export const EXPORT_KEEP_HOURS = 24;
export const PRIVACY_JOBS_PAGE_SIZE = 20;

/** GET /api/privacy/jobs/{id} and the items of GET /api/privacy/jobs. No personal data once done (the report). */
export interface PrivacyJobView {
  _id: string;
  kind: PrivacyJobKind;
  status: PrivacyJobStatus;
  /** Who it is about, while it runs (an erasure's finished report names nobody). */
  person: { label: string } | null;
  progress: { stepsDone: number; stepsTotal: number; step: PrivacyStep | null; items: number };
  /** Erased or exported so far (final once done). */
  counts: PersonDataCounts;
  requestedBy: { _id: string; name: string } | null;
  createdAt: string;
  finishedAt: string | null;
  failure: string | null;
  /** An export, done and not expired: a short-lived link (EXPORT_LINK_MINUTES). */
  download: { url: string; expiresAt: string; fileName: string; bytes: number } | null;
}

export interface PrivacyJobPage {
  jobs: PrivacyJobView[];
  cursor: string | null;
}
