import { describe, expect, it } from 'vitest';
import { addTag, collectCustomFields, customFieldRows, displayName, removeTag, contactOrigin } from './fields';

describe('collectCustomFields (SPEC §5)', () => {
  it('keeps rows with a name and a value, trimmed', () => {
    expect(
      collectCustomFields([
        { name: ' city ', value: ' Madrid ' },
        { name: 'plan', value: '' },
        { name: '', value: 'orphan' },
        { name: '  ', value: '  ' },
      ]),
    ).toEqual({ city: 'Madrid' });
  });

  it('keeps the last value of a repeated name', () => {
    expect(collectCustomFields([{ name: 'a', value: '1' }, { name: 'b', value: '2' }, { name: 'a', value: '3' }])).toEqual({ b: '2', a: '3' });
  });

  it('is empty without rows', () => {
    expect(collectCustomFields([])).toEqual({});
  });

  it('turns a map back into rows', () => {
    expect(customFieldRows({ a: '1' })).toEqual([{ name: 'a', value: '1' }]);
    expect(customFieldRows(undefined)).toEqual([]);
  });
});

describe('tags (SPEC §5 contact edit)', () => {
  it('adds a trimmed, new tag', () => {
    expect(addTag(['vip'], ' lead ')).toEqual(['vip', 'lead']);
  });

  it('ignores empty and repeated tags', () => {
    expect(addTag(['vip'], '   ')).toEqual(['vip']);
    expect(addTag(['vip'], 'vip ')).toEqual(['vip']);
    expect(addTag(['vip'], 'VIP')).toEqual(['vip']);
  });

  it('removes a tag', () => {
    expect(removeTag(['a', 'b'], 'a')).toEqual(['b']);
  });
});

describe('display helpers', () => {
  it('names a contact by name, short name or phone', () => {
    expect(displayName({ name: 'Ana', shortName: 'A', phoneNumber: '+1' })).toBe('Ana');
    expect(displayName({ name: ' ', shortName: 'A' })).toBe('A');
    expect(displayName({ name: '', shortName: '', phoneNumber: '+34600' })).toBe('+34600');
  });

  it('says where a contact came from: the server’s origin, else its source (an import time on a manual contact is a CSV import)', () => {
    expect(contactOrigin({ source: 'manual', origin: 'call' })).toBe('call');
    expect(contactOrigin({ source: 'whatsapp_import' })).toBe('whatsapp');
    expect(contactOrigin({ source: 'api' })).toBe('api');
    expect(contactOrigin({ source: 'manual', metadata: { importedAt: '2026-01-01T00:00:00.000Z' } })).toBe('csv');
    expect(contactOrigin({ source: 'manual' })).toBe('manual');
  });
});
