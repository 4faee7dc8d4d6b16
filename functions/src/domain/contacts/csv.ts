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
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let fieldStarted = false;
  const endField = () => {
    fields.push(field);
    field = '';
    fieldStarted = false;
  };
  const endRecord = () => {
    endField();
    if (fields.some((f) => f.trim() !== '')) records.push({ line: recordLine, fields });
    fields = [];
  };
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    if (quoted) {
      if (ch === '"') {
        if (input[i + 1] === '"') {
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
      endField();
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && input[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else {
      field += ch;
      fieldStarted = true;
    }
  }
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}

/** A cell as spreadsheet apps read it safely: quoted when needed; formula-looking text gets a leading '. */
export function csvCell(value: string, { formulaSafe = true } = {}): string {
  const safe = formulaSafe && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n;]/.test(safe) || safe !== safe.trim() ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvLine = (cells: string[]) => cells.join(',');
