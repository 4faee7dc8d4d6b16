/**
 * What a contacts file is before it is read (issue 19: files saved by Spanish Excel): its
 * encoding (UTF-8 with or without a BOM, else Windows-1252), its delimiter (`,` `;` or tab) and
 * which contact field each header column is (Spanish and English synonyms). Pure functions.
 */
import type { CsvDelimiter, CsvEncoding, ImportColumnMapping } from '../../contract/contact-jobs.js';
import { CONTACT_LIMITS } from '../../contract/contacts.js';

const BOM = [0xef, 0xbb, 0xbf];

export interface DecodedFile {
  text: string;
  encoding: CsvEncoding;
  bom: boolean;
}

const startsWithBom = (bytes: Uint8Array) => bytes.length >= 3 && BOM.every((b, i) => bytes[i] === b);

/**
 * A UTF-8 sample cut at an arbitrary byte may end inside a character: the decoder is then asked
 * not to flush (`stream`), so only a truly invalid sequence counts.
 */
function isUtf8(bytes: Uint8Array, complete: boolean): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}

/** The file's encoding: UTF-8 when its bytes are valid UTF-8 (or it starts with a BOM), else Windows-1252. */
export function detectEncoding(bytes: Uint8Array, complete = true): { encoding: CsvEncoding; bom: boolean } {
  if (startsWithBom(bytes)) return { encoding: 'utf-8', bom: true };
  return { encoding: isUtf8(bytes, complete) ? 'utf-8' : 'windows-1252', bom: false };
}

/** The file as text (a BOM dropped), in the given or the detected encoding. `complete`: false for a leading sample. */
export function decodeFile(bytes: Uint8Array, encoding?: CsvEncoding, complete = true): DecodedFile {
  const detected = detectEncoding(bytes, complete);
  const chosen = encoding ?? detected.encoding;
  const body = detected.bom ? bytes.subarray(3) : bytes;
  // Not fatal: an explicitly chosen UTF-8 on a Windows-1252 file shows U+FFFD rather than failing.
  const text = chosen === 'windows-1252' ? decodeWindows1252(body) : new TextDecoder('utf-8').decode(body, { stream: !complete });
  return { text, encoding: chosen, bom: detected.bom };
}

/** Windows-1252's 0x80–0x9F (€, ‚, ƒ, „, …, curly quotes, Š, Ž, …); 0 = unassigned, read as Latin-1. */
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
  0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

/**
 * Windows-1252 by table: Node's TextDecoder('windows-1252') decodes 0x80–0x9F as Latin-1 control
 * characters (nodejs/node#56542), so "€" and Excel's curly quotes would come out wrong.
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  const chunks: string[] = [];
  for (let start = 0; start < bytes.length; start += 8192) {
    const codes = Array.from(bytes.subarray(start, start + 8192), (b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] || b : b));
    chunks.push(String.fromCharCode(...codes));
  }
  return chunks.join('');
}

/**
 * Text that is not a CSV file: NUL bytes or many control characters (a spreadsheet .xlsx, a PDF,
 * an image renamed .csv) in the first 64 KB.
 */
export function looksBinary(text: string): boolean {
  const sample = text.slice(0, 65_536);
  if (sample.includes('\u0000')) return true;
  let control = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c < 32 && c !== 9 && c !== 10 && c !== 13) control++;
  }
  return control > sample.length / 100;
}

/**
 * The delimiter of the first lines outside quotes: the candidate found the same (non-zero) number
 * of times on most of them, ties broken by the count on the header; `,` when nothing matches.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const lines = unquotedLines(text, 10);
  const candidates: CsvDelimiter[] = [';', ',', '\t'];
  let best: CsvDelimiter = ',';
  let bestScore = 0;
  for (const d of candidates) {
    const counts = lines.map((l) => l.split(d).length - 1);
    const header = counts[0] ?? 0;
    if (header === 0) continue;
    const consistent = counts.filter((c) => c === header).length;
    const score = consistent * 1000 + header;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

/** The first `max` lines with quoted parts removed (a quoted "Madrid, Spain" has no delimiter). */
function unquotedLines(text: string, max: number): string[] {
  const lines: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length && lines.length < max; i++) {
    const ch = text[i]!;
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) {
      if (current.trim()) lines.push(current);
      current = '';
    } else if (!quoted) current += ch;
  }
  if (current.trim() && lines.length < max) lines.push(current);
  return lines;
}

/** Header text folded for matching: no accents, lower case, letters only ("Teléfono móvil" → "telefonomovil"). */
export function headerKey(title: string): string {
  return title
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

type ContactField = 'name' | 'lastName' | 'phone' | 'email' | 'tags' | 'notes';

/** Header synonyms, Spanish and English, folded with headerKey. */
const HEADER_SYNONYMS: Record<ContactField, readonly string[]> = {
  name: [
    'name', 'fullname', 'contactname', 'firstname', 'givenname', 'forename',
    'nombre', 'nombrecompleto', 'nombreyapellidos', 'nombredepila', 'contacto', 'cliente', 'paciente',
  ],
  // Issue 29: a Spanish sheet's "Apellidos" (both surnames in one column) is the contact's last name.
  lastName: ['apellidos', 'apellido', 'primerapellido', 'surname', 'surnames', 'lastname', 'lastnames', 'familyname'],
  phone: [
    'phone', 'phonenumber', 'mobile', 'mobilephone', 'cell', 'cellphone', 'telephone', 'tel', 'whatsapp',
    'telefono', 'numerodetelefono', 'telefonomovil', 'movil', 'celular', 'numero', 'tlf', 'tfno',
  ],
  email: ['email', 'emailaddress', 'mail', 'correo', 'correoelectronico', 'direcciondecorreo'],
  tags: ['tags', 'tag', 'labels', 'label', 'etiquetas', 'etiqueta', 'grupos', 'grupo'],
  notes: ['notes', 'note', 'comments', 'notas', 'nota', 'observaciones', 'comentarios'],
};
/** Columns our own export adds that are not contact data to import again: suggested as "don't import". */
const IGNORED_HEADERS = new Set(['origin', 'source', 'origen', 'created', 'createdat', 'creado', 'fechadecreacion', 'fechadealta']);

const FIELD_BY_KEY = new Map<string, ContactField>(
  (Object.entries(HEADER_SYNONYMS) as [ContactField, readonly string[]][]).flatMap(([field, keys]) => keys.map((k) => [k, field] as const)),
);

/** A column of our own export that is not contact data (origin, created): not imported. */
export const isIgnoredHeader = (title: string) => IGNORED_HEADERS.has(headerKey(title));

/** The field a header title suggests, or undefined for a custom field. */
export function fieldOfHeader(title: string): ContactField | undefined {
  return FIELD_BY_KEY.get(headerKey(title));
}

/**
 * One mapping per header column: the first column of each known field gets it; any other named
 * column becomes a custom field of its title (cut to the field-name limit, unique); an empty title is ignored.
 */
export function suggestColumns(header: readonly string[]): ImportColumnMapping[] {
  const taken = new Set<ContactField>();
  const customNames = new Set<string>();
  return header.map((raw) => {
    const title = raw.trim();
    if (isIgnoredHeader(title)) return { field: 'ignore' as const };
    const field = fieldOfHeader(title);
    if (field && !taken.has(field)) {
      taken.add(field);
      return { field };
    }
    const name = title.slice(0, CONTACT_LIMITS.customFieldName).trim();
    if (!name || customNames.has(name.toLowerCase())) return { field: 'ignore' as const };
    customNames.add(name.toLowerCase());
    return { field: 'custom' as const, name };
  });
}
