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

  it('indexes name words, the e-mail (whole, domain, words) and the phone reversed (its beginning is its guard key)', () => {
    const tokens = contactTokens({ name: 'José Álvarez', email: 'Pepe.A@Acme.io', phoneNumber: '+14155550123' });
    expect(tokens.sort()).toEqual(['~32105555141', 'acme.io', 'alvarez', 'jose', 'pepe.a@acme.io'].sort());
    expect(phoneTokens('+34612345678')).toEqual(['~87654321643']);
  });

  it('drops a token that begins another: a term that begins it begins the longer one too', () => {
    const contact = { name: 'Ana Anabel Ruiz', email: 'ana.ruiz@clinica-pena.es', phoneNumber: '+34600111333' };
    const tokens = contactTokens(contact);
    expect(tokens).not.toContain('ana');
    expect(tokens).not.toContain('ana.ruiz'); // the local part begins the whole address
    expect(tokens).not.toContain('es'); // the top-level domain is not a word anyone searches by
    expect(tokens).toEqual(expect.arrayContaining(['anabel', 'ruiz', 'ana.ruiz@clinica-pena.es', 'clinica-pena.es', 'pena']));
    for (const q of ['ana', 'ruiz', 'clinica', 'pena', 'ana.ruiz@cli', '600 111', '600111333', '1333', '111 333', '+34 600', '0034 600 111']) {
      expect(matchesAll({ ...contact, tokens }, searchTerms(q, 'ES')), q).toBe(true);
    }
    for (const q of ['0111', 'nadie', '+1 600']) expect(matchesAll({ ...contact, tokens }, searchTerms(q, 'ES')), q).toBe(false);
  });

  it('a Spanish contact is a handful of token items (an import writes each one; every suffix of the number was 8 more)', () => {
    expect(contactTokens({ name: 'María José García López', email: 'mjgarcia@gmail.com', phoneNumber: '+34612345678' })).toHaveLength(7);
    // "lucia" begins the e-mail: munoz, lucia@gmail.com, gmail.com, ~87654321643.
    expect(contactTokens({ name: 'Lucía Muñoz', email: 'lucia@gmail.com', phoneNumber: '+34612345678' })).toHaveLength(4);
  });

  it('caps the tokens of a contact, keeping its phone and e-mail', () => {
    const name = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const tokens = contactTokens({ name, email: 'a@b.co', phoneNumber: '+14155550123' });
    expect(tokens.length).toBeLessThanOrEqual(MAX_TOKENS_PER_CONTACT);
    expect(tokens).toContain('~32105555141');
    expect(tokens).toContain('a@b.co');
  });

  it('reduces a phone-looking query to one term: how a number begins (E.164) or ends (reversed digits)', () => {
    expect(searchTerms('(415) 555-0123', 'US')).toEqual([{ phones: ['+14155550123', '+4155550123'], tokens: ['4155550123', '~3210555514'] }]);
    expect(searchTerms('+1 415 555', 'US')).toEqual([{ phones: ['+1415555'], tokens: ['1415555'] }]);
    expect(searchTerms('0034 612', 'US')).toEqual([{ phones: ['+34612'], tokens: ['34612'] }]);
    expect(searchTerms('555-01', 'US')).toEqual([{ phones: ['+155501', '+55501'], tokens: ['55501', '~10555'] }]);
    expect(searchTerms('123', 'US')).toEqual([{ phones: ['+1123', '+123'], tokens: ['123'] }]); // too short to be a number's end
    expect(searchTerms('020 79', 'GB')).toEqual([{ phones: ['+442079', '+02079'], tokens: ['02079', '~97020'] }]); // trunk 0 dropped at home
    expect(searchTerms('600 111', 'ES')).toEqual([{ phones: ['+34600111', '+600111'], tokens: ['600111', '~111006'] }]);
  });

  it('reduces an e-mail to one term and text to its words', () => {
    expect(searchTerms('  José   álv ', 'US')).toEqual([{ tokens: ['jose'], phones: [] }, { tokens: ['alv'], phones: [] }]);
    expect(searchTerms('Pepe.A@acme', 'US')).toEqual([{ tokens: ['pepe.a@acme'], phones: [] }]);
    expect(searchTerms('Acme.io', 'US')).toEqual([{ tokens: ['acme.io'], phones: [] }]); // the domain token, not "acme" and "io"
    expect(searchTerms('   ', 'US')).toEqual([]);
  });

  it('matches when every term begins some token or the number', () => {
    const contact = { name: 'José Álvarez', email: '', phoneNumber: '+14155550123' };
    const c = { ...contact, tokens: contactTokens(contact) };
    expect(matchesAll(c, searchTerms('jos alv', 'US'))).toBe(true);
    expect(matchesAll(c, searchTerms('jose maria', 'US'))).toBe(false);
    expect(matchesAll(c, searchTerms('555 0123', 'US'))).toBe(true); // the end
    expect(matchesAll(c, searchTerms('415 555', 'US'))).toBe(true); // the national beginning
    expect(matchesAll(c, searchTerms('+1 415', 'US'))).toBe(true); // the international beginning
    expect(matchesAll(c, searchTerms('14155', 'ES'))).toBe(true); // digits with the country code, without +
    expect(matchesAll(c, searchTerms('0123', 'US'))).toBe(true);
    expect(matchesAll(c, searchTerms('5555', 'US'))).toBe(false); // neither beginning nor end
    expect(matchesAll(c, searchTerms('varez', 'US'))).toBe(false); // word-prefix, not substring
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
