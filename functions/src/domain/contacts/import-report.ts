/**
 * The import's error report in the job owner's language (issue 19): why each row was not
 * imported, and the report's header. Row checks give the contract's English texts; each is
 * mapped to a reason code and rendered from the catalogue (the compiler checks es has every key).
 */
import type { ImportSkipReason } from '../../contract/contact-jobs.js';
import { contactMessages } from '../../contract/contacts.js';
import { catalogue } from '../i18n/messages.js';

type Reasons = {
  header: { line: string; reason: string };
  phoneRequired: string;
  phoneInvalid: string;
  emailInvalid: string;
  nameTooLong: string;
  emailTooLong: string;
  notesTooLong: string;
  tooManyTags: string;
  tagTooLong: string;
  tooManyCustomFields: string;
  customFieldNameTooLong: string;
  customFieldValueTooLong: string;
  duplicateContact: (label: string) => string;
  duplicateLine: (line: number) => string;
  planLimit: string;
  notSaved: string;
};

export const importReasons = catalogue<Reasons>(
  {
    header: { line: 'Line', reason: 'Reason' },
    phoneRequired: contactMessages.phoneRequired,
    phoneInvalid: contactMessages.phoneInvalid,
    emailInvalid: contactMessages.emailInvalid,
    nameTooLong: contactMessages.nameTooLong,
    emailTooLong: contactMessages.emailTooLong,
    notesTooLong: contactMessages.notesTooLong,
    tooManyTags: contactMessages.tooManyTags,
    tagTooLong: contactMessages.tagTooLong,
    tooManyCustomFields: contactMessages.tooManyCustomFields,
    customFieldNameTooLong: contactMessages.customFieldNameTooLong,
    customFieldValueTooLong: contactMessages.customFieldValueTooLong,
    duplicateContact: (label) => contactMessages.duplicate(label),
    duplicateLine: (line) => `Same phone number as line ${line}`,
    planLimit: 'Your plan’s contact limit was reached',
    notSaved: 'This contact could not be saved. Please try again.',
  },
  {
    header: { line: 'Línea', reason: 'Motivo' },
    phoneRequired: 'El número de teléfono es obligatorio',
    phoneInvalid: 'Introduce un número de teléfono válido',
    emailInvalid: 'Dirección de correo electrónico no válida',
    nameTooLong: 'El nombre debe tener 100 caracteres o menos',
    emailTooLong: 'El correo debe tener 254 caracteres o menos',
    notesTooLong: 'Las notas deben tener 2000 caracteres o menos',
    tooManyTags: 'Un contacto puede tener como máximo 50 etiquetas',
    tagTooLong: 'Las etiquetas deben tener 50 caracteres o menos',
    tooManyCustomFields: 'Un contacto puede tener como máximo 50 campos personalizados',
    customFieldNameTooLong: 'Los nombres de los campos personalizados deben tener 50 caracteres o menos',
    customFieldValueTooLong: 'Los valores de los campos personalizados deben tener 500 caracteres o menos',
    duplicateContact: (label) => `Ya existe un contacto con este número de teléfono: ${label}`,
    duplicateLine: (line) => `Mismo número de teléfono que la línea ${line}`,
    planLimit: 'Se alcanzó el límite de contactos de tu plan',
    notSaved: 'No se pudo guardar este contacto. Inténtalo de nuevo.',
  },
);

type PlainKey = Exclude<keyof Reasons, 'header' | 'duplicateContact' | 'duplicateLine'>;

/** English contract text → reason key (the row checks report contract texts). */
const KEY_BY_TEXT = new Map<string, PlainKey>(
  (['phoneRequired', 'phoneInvalid', 'emailInvalid', 'nameTooLong', 'emailTooLong', 'notesTooLong', 'tooManyTags', 'tagTooLong', 'tooManyCustomFields', 'customFieldNameTooLong', 'customFieldValueTooLong', 'notSaved'] as const).map(
    (k) => [importReasons('en')[k], k] as const,
  ),
);

/** A row's reason (an English contract text) in `language`; an unknown text stays as it is. */
export function reasonText(text: string, language: unknown): string {
  const texts = importReasons(language);
  const key = KEY_BY_TEXT.get(text);
  if (key) return texts[key];
  // The invalid-phone text may carry an example after the contract's prefix (the account's country).
  if (text.startsWith(contactMessages.phoneInvalid)) return texts.phoneInvalid;
  return text;
}

/** Why-codes of the checks' texts (the history's counts); any length or count limit is 'too_long'. */
const CODE_BY_KEY: Partial<Record<PlainKey, ImportSkipReason>> = {
  phoneRequired: 'phone_missing',
  phoneInvalid: 'phone_invalid',
  emailInvalid: 'email_invalid',
  planLimit: 'plan_limit',
  notSaved: 'not_saved',
};

/** The skip reason of a row check's text (an English contract text). */
export function skipReasonOf(text: string): ImportSkipReason {
  const key = KEY_BY_TEXT.get(text);
  if (key) return CODE_BY_KEY[key] ?? 'too_long';
  if (text.startsWith(contactMessages.phoneInvalid)) return 'phone_invalid';
  return 'not_saved';
}
