/** What a contacts file is (issue 19: Spanish Excel files): encoding, delimiter, header synonyms, and reading it in slices. */
import { describe, expect, it } from 'vitest';
import { mappingProblem } from '../../../src/contract/contact-jobs.js';
import { decodeFile, detectDelimiter, detectEncoding, fieldOfHeader, looksBinary, suggestColumns } from '../../../src/domain/contacts/csv-detect.js';
import { csvRecords } from '../../../src/domain/contacts/csv.js';
import { reasonText } from '../../../src/domain/contacts/import-report.js';

const latin1 = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('detectEncoding / decodeFile', () => {
  it('reads Windows-1252 (Spanish Excel) when the bytes are not valid UTF-8', () => {
    const bytes = latin1('Nombre;Teléfono\r\nMuñoz Peña;600 111 333\r\n');

    expect(detectEncoding(bytes)).toEqual({ encoding: 'windows-1252', bom: false });
    expect(decodeFile(bytes).text).toBe('Nombre;Teléfono\r\nMuñoz Peña;600 111 333\r\n');
  });

  it('reads Windows-1252 characters outside Latin-1 (€ is 0x80 there)', () => {
    expect(decodeFile(new Uint8Array([0x80, 0x20, 0x35])).text).toBe('€ 5');
  });

  it('reads UTF-8 with a BOM (dropped) and without one', () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('name\nPeña\n')]);

    expect(decodeFile(withBom)).toEqual({ text: 'name\nPeña\n', encoding: 'utf-8', bom: true });
    expect(decodeFile(utf8('name\nPeña\n'))).toEqual({ text: 'name\nPeña\n', encoding: 'utf-8', bom: false });
  });

  it('keeps a sample cut inside a UTF-8 character UTF-8', () => {
    const bytes = utf8('name\nPeña');
    const cut = bytes.subarray(0, bytes.length - 2); // inside 'ñ'

    expect(detectEncoding(cut, false).encoding).toBe('utf-8');
    expect(detectEncoding(cut, true).encoding).toBe('windows-1252');
  });

  it('honours an encoding chosen by the user', () => {
    expect(decodeFile(latin1('Peña'), 'windows-1252').text).toBe('Peña');
  });

  it('tells binary files from text', () => {
    expect(looksBinary('PK\u0003\u0004\u0000\u0000zip')).toBe(true);
    expect(looksBinary('name;phone\r\nAna;600 111 333\r\n\tindented')).toBe(false);
  });
});

describe('detectDelimiter', () => {
  it('finds ; , and tab, ignoring delimiters inside quotes', () => {
    expect(detectDelimiter('Nombre;Teléfono;Correo\r\nAna;600 111 333;a@b.es\r\n')).toBe(';');
    expect(detectDelimiter('name,phone\nAna,600111333\n')).toBe(',');
    expect(detectDelimiter('name\tphone\nAna\t600111333\n')).toBe('\t');
    expect(detectDelimiter('Nombre;Dirección\r\n"García, Ana";"Calle Mayor, 1, Madrid"\r\n')).toBe(';');
  });

  it('prefers the delimiter that splits every line the same way (decimal commas in a ; file)', () => {
    expect(detectDelimiter('Nombre;Teléfono;Saldo\nAna;600 111 333;12,50\nLuis;600 111 334;3,10\n')).toBe(';');
  });

  it('answers , for a one-column file', () => {
    expect(detectDelimiter('phone\n600111333\n')).toBe(',');
  });
});

describe('header synonyms', () => {
  it('maps Spanish and English headers, with or without accents and case', () => {
    expect(['Nombre', 'Nombre completo', 'name', 'Full Name'].map(fieldOfHeader)).toEqual(['name', 'name', 'name', 'name']);
    expect(['Teléfono', 'telefono', 'Móvil', 'movil', 'Celular', 'Phone', 'Mobile', 'Phone number'].map(fieldOfHeader)).toEqual(
      Array(8).fill('phone'),
    );
    expect(['Email', 'Correo', 'E-mail', 'Correo electrónico'].map(fieldOfHeader)).toEqual(Array(4).fill('email'));
    expect(['Etiquetas', 'Tags'].map(fieldOfHeader)).toEqual(['tags', 'tags']);
    expect(['Notas', 'Notes'].map(fieldOfHeader)).toEqual(['notes', 'notes']);
    expect(fieldOfHeader('Ciudad')).toBeUndefined();
  });

  it('suggests one column per field, other named columns as custom fields, empty and repeated titles ignored', () => {
    expect(suggestColumns(['Nombre', 'Teléfono', 'Móvil', 'Ciudad', '', 'ciudad', 'Correo'])).toEqual([
      { field: 'name' },
      { field: 'phone' },
      { field: 'custom', name: 'Móvil' },
      { field: 'custom', name: 'Ciudad' },
      { field: 'ignore' },
      { field: 'ignore' },
      { field: 'email' },
    ]);
  });

  it('suggests a mapping the mapping rules accept when there is a phone column', () => {
    expect(mappingProblem(suggestColumns(['Nombre', 'Teléfono', 'Ciudad']))).toBeUndefined();
    expect(mappingProblem(suggestColumns(['Nombre', 'Ciudad']))).toBe('Choose the column with the phone number');
  });
});

describe('csvRecords', () => {
  it('resumes from a position with the right line numbers (quoted line breaks counted)', () => {
    const text = 'a;b\r\n"x\ny";1\r\n\r\nz;2\r\nw;3';
    const all = [...csvRecords(text, ';')];
    expect(all.map((r) => [r.line, r.fields])).toEqual([
      [1, ['a', 'b']],
      [2, ['x\ny', '1']],
      [5, ['z', '2']],
      [6, ['w', '3']],
    ]);

    const rest = [...csvRecords(text, ';', all[1]!.next)];
    expect(rest.map((r) => [r.line, r.fields])).toEqual([
      [5, ['z', '2']],
      [6, ['w', '3']],
    ]);
  });
});

describe('import report reasons', () => {
  it("renders the row checks' texts in the owner's language, the invalid-phone text with an example too", () => {
    expect(reasonText('Invalid email address', 'es')).toBe('Dirección de correo electrónico no válida');
    expect(reasonText('Please enter a valid phone number, e.g. 612 34 56 78 or +34 612 34 56 78', 'es')).toBe('Introduce un número de teléfono válido');
    expect(reasonText('Invalid email address', 'en')).toBe('Invalid email address');
  });
});
