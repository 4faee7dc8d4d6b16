/** How a key is shown in the list: its stored prefix and an ellipsis (the rest is never known again). */
export function maskedKey(prefix: string): string {
  return `${prefix}…`;
}

/** A date and time in the UI language, or null when there is none or it is not a date. */
export function formatDateTime(language: string, iso: string | null | undefined): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}
