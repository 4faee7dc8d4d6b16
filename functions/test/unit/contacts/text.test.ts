import { describe, expect, it } from 'vitest';
import { normaliseCustomFields, normaliseTags } from '../../../src/contract/contacts.js';
import { parseCsv, csvCell } from '../../../src/domain/contacts/csv.js';
import {
  MAX_TOKENS_PER_CONTACT,
  contactTokens,
  fold,
  matchesAll,
  phoneTokens,
  searchTerms,
  toE164,
} from '../../../src/domain/contacts/text.js';

describe('toE164', () => {
  it.each([
    ['(415) 555-0123', 'US', '+14155550123'],
    ['+1 415 555 0123', 'ES', '+14155550123'],
    ['612 34 56 78', 'ES', '+34612345678'],
    ['0034 612 34 56 78', 'US', '+34612345678'],
    ['020 7946 0958', 'GB', '+442079460958'],
  ])('%s (default %s) → %s', (input, country, e164) => {
    expect(toE164(input, country)).toBe(e164);
  });

  it.each(['', 'abc', '12345', '+1 000 000 0000', '612 34 56 78 99 00 11'])('rejects %j', (input) => {
    expect(toE164(input, 'US')).toBeNull();
  });
});

describe('search tokens and terms', () => {
  it('folds accents and case', () => {
    expect(fold('José ÁLVAREZ Núñez')).toBe('jose alvarez nunez');
  });

  it('indexes name words, the e-mail (whole, local, domain, their words) and every phone suffix of 4+ digits', () => {
    const tokens = contactTokens({ name: 'José Álvarez', email: 'Pepe.A@Acme.io', phoneNumber: '+14155550123' });
    expect(tokens).toEqual(
      expect.arrayContaining(['jose', 'alvarez', 'pepe.a@acme.io', 'pepe.a', 'acme.io', 'pepe', 'acme', 'io', '14155550123', '4155550123', '0123']),
    );
    expect(tokens).not.toContain('123');
    expect(phoneTokens('+14155550123')).toHaveLength(8);
  });

  it('caps the tokens of a contact, keeping its phone and e-mail', () => {
    const name = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const tokens = contactTokens({ name, email: 'a@b.co', phoneNumber: '+14155550123' });
    expect(tokens.length).toBeLessThanOrEqual(MAX_TOKENS_PER_CONTACT);
    expect(tokens).toContain('0123');
    expect(tokens).toContain('a@b.co');
  });

  it('reduces phone-looking queries to digits (national digits for a full national number) and text to words', () => {
    expect(searchTerms('(415) 555-0123', 'US')).toEqual(['4155550123']);
    expect(searchTerms('+1 415 555', 'US')).toEqual(['1415555']);
    expect(searchTerms('555-01', 'US')).toEqual(['55501']);
    expect(searchTerms('020 7946 0958', 'GB')).toEqual(['2079460958']);
    expect(searchTerms('  José   álv ', 'US')).toEqual(['jose', 'alv']);
    expect(searchTerms('Pepe.A@acme', 'US')).toEqual(['pepe.a@acme']);
    expect(searchTerms('   ', 'US')).toEqual([]);
  });

  it('matches when every term begins some token', () => {
    const tokens = contactTokens({ name: 'José Álvarez', email: '', phoneNumber: '+14155550123' });
    expect(matchesAll(tokens, searchTerms('jos alv', 'US'))).toBe(true);
    expect(matchesAll(tokens, searchTerms('jose maria', 'US'))).toBe(false);
    expect(matchesAll(tokens, searchTerms('555 0123', 'US'))).toBe(true);
    expect(matchesAll(tokens, searchTerms('varez', 'US'))).toBe(false); // word-prefix, not substring
  });
});

describe('contract normalisers', () => {
  it('custom fields: trimmed, empty names or values dropped, last value of a repeated name wins', () => {
    expect(normaliseCustomFields([{ name: ' a ', value: '1' }, { name: 'b', value: ' ' }, { name: 'a', value: ' 2 ' }])).toEqual({ a: '2' });
    expect(normaliseCustomFields({ x: ' y ', z: '' })).toEqual({ x: 'y' });
  });

  it('tags: trimmed, empty dropped, case-insensitive duplicates dropped keeping the first spelling', () => {
    expect(normaliseTags([' VIP ', 'vip', '', 'Lead', 'lead ', null])).toEqual(['VIP', 'Lead']);
  });
});

describe('CSV', () => {
  it('parses quotes, escaped quotes, CRLF, embedded newlines, a BOM and blank lines, with record line numbers', () => {
    const records = parseCsv('\uFEFFname,phone\r\n"A, ""B""",1\r\n\r\n"multi\nline",2\n');
    expect(records).toEqual([
      { line: 1, fields: ['name', 'phone'] },
      { line: 2, fields: ['A, "B"', '1'] },
      { line: 4, fields: ['multi\nline', '2'] },
    ]);
  });

  it('detects a semicolon delimiter from the header', () => {
    expect(parseCsv('name;phone\nAna;+34612345678')[1]!.fields).toEqual(['Ana', '+34612345678']);
  });

  it('quotes cells when needed and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('+14155550123', { formulaSafe: false })).toBe('+14155550123');
  });
});

describe('phone metadata', () => {
  it('is generated from the installed libphonenumber-js (run functions/scripts/phone-metadata.ts after upgrading)', async () => {
    const { readFileSync } = await import('node:fs');
    const { phoneMetadataFile, phoneMetadataModule } = await import('../../../scripts/phone-metadata.js');
    expect(readFileSync(phoneMetadataFile, 'utf8')).toBe(phoneMetadataModule());
  });
});
