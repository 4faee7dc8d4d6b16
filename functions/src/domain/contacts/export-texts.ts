/**
 * The contacts export's words in the account's language (issue 29): headers, origins and the dated
 * file name. Apart from csv-export.ts so the jobs' API function (which names the file) carries no
 * export code or phone metadata.
 */
import type { ContactOrigin } from '../../contract/contacts.js';
import { catalogue } from '../i18n/messages.js';

export const exportTexts = catalogue<{ header: string[]; origin: Record<ContactOrigin, string>; fileName: string }>(
  {
    header: ['First name', 'Last name', 'Phone', 'Email', 'Tags', 'Notes', 'Origin', 'Created'],
    origin: { csv: 'Imported (CSV)', whatsapp: 'WhatsApp', call: 'Call', manual: 'Manual', api: 'API' },
    fileName: 'contacts',
  },
  {
    header: ['Nombre', 'Apellidos', 'Teléfono', 'Correo electrónico', 'Etiquetas', 'Notas', 'Origen', 'Creado'],
    origin: { csv: 'Importado (CSV)', whatsapp: 'WhatsApp', call: 'Llamada', manual: 'Manual', api: 'API' },
    fileName: 'contactos',
  },
);

/** The day of `at` in the time zone (YYYY-MM-DD); UTC when the zone is unknown; '' without a valid time. */
export function dayIn(at: string | Date, timeZone: string | undefined): string {
  const date = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: timeZone || 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(date);
    const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
    return `${part('year')}-${part('month')}-${part('day')}`;
  } catch {
    return date.toISOString().slice(0, 10);
  }
}

/** The export's file name in the account's language, dated in its time zone: contactos-2026-11-28.csv. */
export const exportFileName = (language: unknown, at: string | Date, timeZone?: string) => `${exportTexts(language).fileName}-${dayIn(at, timeZone)}.csv`;
