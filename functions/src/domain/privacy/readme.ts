/**
 * README.txt of a person's export (issue 33), in the account's language: what the ZIP is and what
 * each file in it holds (by the step that wrote it and its kind of file).
 */
import type { PrivacyStep } from '../../contract/privacy.js';

export type ExportLanguage = 'en' | 'es';

const TEXTS = {
  en: {
    title: 'Personal data export',
    intro: (label: string, day: string) =>
      `Everything this business holds about ${label || 'this person'} in AgentDesk, exported on ${day} (UTC).\nThe files are grouped by kind of data. Each file is listed below with what it contains.`,
    steps: {
      calls: 'phone calls',
      conversations: 'WhatsApp conversations',
      bookings: 'appointments',
      notifications: 'notifications to the business about this person',
      contact: 'the contact record',
    } satisfies Record<PrivacyStep, string>,
    json: 'all the data, machine-readable (JSON)',
    csv: 'the same as a table (CSV, UTF-8, ";" separator: opens in Excel)',
    txt: 'a readable text (a transcript or summary)',
    media: 'a file sent or recorded (photo, document, audio or recording)',
    of: 'of',
    none: 'Nothing is stored about this person.',
    readme: 'this file',
  },
  es: {
    title: 'Exportación de datos personales',
    intro: (label: string, day: string) =>
      `Todo lo que este negocio guarda sobre ${label || 'esta persona'} en AgentDesk, exportado el ${day} (UTC).\nLos archivos se agrupan por tipo de dato. Abajo se indica qué contiene cada uno.`,
    steps: {
      calls: 'llamadas de teléfono',
      conversations: 'conversaciones de WhatsApp',
      bookings: 'citas',
      notifications: 'avisos al negocio sobre esta persona',
      contact: 'la ficha del contacto',
    } satisfies Record<PrivacyStep, string>,
    json: 'todos los datos, en formato legible por máquina (JSON)',
    csv: 'lo mismo en forma de tabla (CSV, UTF-8, separador ";": se abre con Excel)',
    txt: 'un texto legible (una transcripción o un resumen)',
    media: 'un archivo enviado o grabado (foto, documento, audio o grabación)',
    of: 'de',
    none: 'No hay nada guardado sobre esta persona.',
    readme: 'este archivo',
  },
} as const;

const kindOf = (path: string): 'json' | 'csv' | 'txt' | 'media' => {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return ext === 'json' || ext === 'csv' || ext === 'txt' ? ext : 'media';
};

export function exportReadme(language: ExportLanguage, input: { label: string; at: Date; files: readonly { path: string; step: PrivacyStep }[] }): string {
  const t = TEXTS[language];
  const lines = [t.title, '='.repeat(t.title.length), '', t.intro(input.label, input.at.toISOString().slice(0, 10)), ''];
  lines.push(`README.txt: ${t.readme}`);
  if (input.files.length === 0) lines.push('', t.none);
  for (const f of input.files) lines.push(`${f.path}: ${t[kindOf(f.path)]} (${t.steps[f.step]})`);
  // CRLF: Notepad on an older Windows shows LF-only text on one line.
  return `${lines.join('\r\n')}\r\n`;
}
