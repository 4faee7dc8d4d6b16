/**
 * Contact ids: time-ordered, the zero-padded per-user sequence + 6 random base-36 characters, so
 * the key order is the list order. Apart from records.ts so the storage adapter (and the
 * dashboard, which reads the contacts directory) bundle no phone metadata.
 */
export const SEQ_DIGITS = 10;
export const padSeq = (seq: number) => String(seq).padStart(SEQ_DIGITS, '0');
/** What a contact id looks like; anything else is not read (it answers 404). */
export const isContactId = (id: string) => /^\d{10}[a-z0-9]{6}$/.test(id);

/** 6 random base-36 characters (the id suffix). */
export const randomIdSuffix = () =>
  Array.from({ length: 6 }, () => '0123456789abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 36)]).join('');
