import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../../../src/domain/knowledge/bm25.js';
import { fold, normaliseWhitespace, tokenize } from '../../../src/domain/knowledge/text.js';

describe('tokenize', () => {
  it('folds case and accents, keeps unicode letters and digits, drops the language stop words, stems lightly', () => {
    expect(tokenize('¿Cuánta es la GARANTÍA de 24 meses?', 'es')).toEqual(['garanti', '24', 'mes']);
    expect(tokenize('What is the size of the Straße service in Zürich?')).toEqual(['size', 'straße', 'service', 'zurich']);
  });

  it('reduces plurals the same way in chunks and queries', () => {
    expect(tokenize('prices')).toEqual(tokenize('price'));
    expect(tokenize('precios', 'es')).toEqual(tokenize('precio', 'es'));
    expect(tokenize('glass')).toEqual(['glass']);
  });

  it('splits on punctuation and symbols', () => {
    expect(tokenize('x-mail: info@acme.com, 3,200.50')).toEqual(['x', 'mail', 'info', 'acme', 'com', '3', '200', '50']);
  });
});

describe('normaliseWhitespace and fold', () => {
  it('normalises line ends, odd spaces and blank runs', () => {
    expect(normaliseWhitespace('a\r\nb\rc\u00a0\u00a0d\t e\n\n\n\nf\u00ad g\u200b')).toBe('a\nb\nc d e\n\nf g');
    expect(fold('ÁÉÍÓÚ Ñandú')).toBe('aeiou nandu');
  });
});

describe('Bm25Index', () => {
  const docs = [
    'Teeth whitening costs 420 dollars per session.',
    'A dental implant with a crown costs 3200 dollars. Implant surgery takes an hour.',
    'We are open Monday to Friday.',
    'Implant implant implant implant implant implant implant implant implant implant implant implant filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler',
  ].map((d) => tokenize(d));
  const index = new Bm25Index(docs);

  it('scores only the documents that hold a query term', () => {
    const r = index.search(tokenize('on monday or friday'));
    expect(r.matched).toEqual([2]);
    expect(r.scores[2]).toBeGreaterThan(0);
    expect(r.max).toBe(r.scores[2]);
    expect(index.search(tokenize('xylophone')).matched).toEqual([]);
    expect(index.search(tokenize('xylophone')).max).toBe(0);
  });

  it('ranks by term rarity and saturates term frequency with length normalisation', () => {
    const r = index.search(tokenize('implant crown'));
    // Doc 1 has both "implant" and the rarer "crown"; doc 3 repeats "implant" but is long and lacks "crown".
    expect(r.scores[1]).toBeGreaterThan(r.scores[3]!);
    expect(r.scores[3]).toBeGreaterThan(0);
    expect(r.scores[0]).toBe(0);
  });

  it('counts a repeated query term once', () => {
    expect(index.search(['whitening', 'whitening']).scores[0]).toBeCloseTo(index.search(['whitening']).scores[0]!, 6);
  });

  it('handles an empty index', () => {
    expect(new Bm25Index([]).search(['a']).matched).toEqual([]);
  });
});
