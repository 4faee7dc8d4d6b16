/**
 * CSV for contact import and export (RFC 4180: quoted fields, "" escapes, CRLF or LF, a UTF-8
 * BOM ignored). The delimiter is a comma, or a semicolon when the header has more of those.
 */

export interface CsvRecord {
  /** 1-based line where the record starts. */
  line: number;
  fields: string[];
}

export function parseCsv(text: string): CsvRecord[] {
  const input = text.replace(/^\uFEFF/, '');
  const firstLine = input.slice(0, input.search(/\r?\n|$/));
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  return [...csvRecords(input, delimiter)].map(({ line, fields }) => ({ line, fields }));
}

/** A cell as spreadsheet apps read it safely: quoted when needed; formula-looking text gets a leading '. */
export function csvCell(value: string, { formulaSafe = true } = {}): string {
  const safe = formulaSafe && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n;\t]/.test(safe) || safe !== safe.trim() ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvLine = (cells: string[]) => cells.join(',');

/** Where a CSV reader stands: the character offset of the next record and its 1-based line. */
export interface CsvPosition {
  offset: number;
  line: number;
}

/** A record and the position just after it (where the next one starts). */
export interface CsvRecordAt extends CsvRecord {
  next: CsvPosition;
}

/**
 * The records of `text` from `from` on, one at a time, with the given delimiter (RFC 4180 like
 * parseCsv; blank lines skipped). A job reads a file in slices: it resumes from the last `next`.
 */
export function* csvRecords(text: string, delimiter: string, from: CsvPosition = { offset: 0, line: 1 }): Generator<CsvRecordAt> {
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let fieldStarted = false;
  let line = from.line;
  let recordLine = line;
  let i = from.offset;
  const n = text.length;
  for (; i < n; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (ch === delimiter) {
      fields.push(field);
      field = '';
      fieldStarted = false;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      line++;
      if (fields.some((f) => f.trim() !== '')) yield { line: recordLine, fields, next: { offset: i + 1, line } };
      fields = [];
      field = '';
      fieldStarted = false;
      recordLine = line;
    } else {
      field += ch;
      fieldStarted = true;
    }
  }
  if (field !== '' || fields.length > 0) {
    fields.push(field);
    if (fields.some((f) => f.trim() !== '')) yield { line: recordLine, fields, next: { offset: n, line } };
  }
}

/** A CSV text of these rows with the given delimiter, UTF-8 BOM first (Excel then reads accents right), CRLF line ends. */
export function csvDocument(rows: readonly string[][], delimiter: string): string {
  return `\uFEFF${rows.map((cells) => cells.join(delimiter)).join('\r\n')}\r\n`;
}
