import { describe, expect, it } from 'vitest';
import { analyse, analyseWords, chunkTerms, HOURS_TERM, PLACE_TERM, PRICE_TERM, weightOfTerm } from '../../../src/domain/knowledge/analysis.js';

describe('analyse: Spanish', () => {
  it('folds accents and case so "Sábados" and "sabado" meet', () => {
    expect(analyse('Sábados', 'es')).toEqual(analyse('sabado', 'es'));
    expect(analyse('SÁBADO', 'es')).toEqual(analyse('sábados', 'es'));
    expect(analyse('Garantía', 'es')).toEqual(analyse('garantias', 'es'));
  });

  it('stems plurals (-s, -es, -ces), -ción/-ciones and gender variants to one term', () => {
    const same = (a: string, b: string) => expect(analyse(a, 'es')).toEqual(analyse(b, 'es'));
    same('horas', 'hora');
    same('meses', 'mes');
    same('reservaciones', 'reservación');
    same('luces', 'luz');
    same('precios', 'precio');
    same('bebidas', 'bebida');
    same('postres', 'postre');
    same('niños', 'niño');
    same('flores', 'flor');
    same('clases', 'clase');
    // "mesa" (table) and "mes" (month) must stay apart.
    expect(analyse('mesa', 'es')).not.toEqual(analyse('mes', 'es'));
  });

  it('drops Spanish stop words and question words, keeps numbers whole', () => {
    expect(analyse('¿Cuánto cuesta la limpieza dental?', 'es')).toEqual([PRICE_TERM, 'limpiez', 'dental']);
    expect(analyse('Implante de 1.200 kg', 'es')).toEqual(['implant', '1', '200', 'kg']);
  });

  it('drops the customer\'s second-person plural verbs (documents never say them), accents optional, not "seis" or nouns in -es', () => {
    expect(analyse('¿Hacéis bocadillos? ¿Aceptáis cheques? haceis aceptais servís', 'es')).toEqual(['bocadill', 'chequ']);
    expect(analyse('seis países', 'es')).toEqual(['sei', 'pais']);
  });
});

describe('analyse: English', () => {
  it('applies Porter step 1a', () => {
    const same = (a: string, b: string) => expect(analyse(a, 'en')).toEqual(analyse(b, 'en'));
    same('prices', 'price');
    same('policies', 'policy');
    same('glasses', 'glass');
    same('Bikes', 'bike');
    expect(analyse('bus glass analysis', 'en')).toEqual(['bus', 'glass', 'analysis']);
  });

  it('drops English stop words, not Spanish ones', () => {
    expect(analyse('How much is the bottle?', 'en')).toEqual(['bottle']);
    expect(analyse('What is the size of the Straße service in Zürich?', 'en')).toEqual(['size', 'straße', 'service', 'zurich']);
  });
});

describe('analyseWords and chunkTerms', () => {
  it('gives each term the offsets of its word in the original text, accents included', () => {
    const text = 'Turnos: Sábados 10 a 14';
    const words = analyseWords(text, 'es');
    expect(words.map((w) => text.slice(w.start, w.end))).toEqual(['Turnos', 'Sábados', '10', '14']);
    expect(words[1]!.term).toBe(analyse('sabado', 'es')[0]);
  });

  it('keeps a decomposed accent inside its word', () => {
    const text = 'Sa\u0301bados';
    expect(analyseWords(text, 'es')).toEqual([{ term: analyse('sabado', 'es')[0], start: 0, end: text.length }]);
  });

  it('indexes the heading path with the text', () => {
    expect(chunkTerms({ headings: ['Tarifas', 'Verano'], text: 'Viernes | turno de mañana' }, 'es')).toEqual(
      analyse('Tarifas Verano Viernes turno mañana', 'es'),
    );
  });
});

describe('analyse: the price, hours and place intents', () => {
  it('gives price words and a currency sign one term, so "¿cuánto cuesta?" meets "45 €"', () => {
    expect(analyse('¿Cuánto cuesta? ¿Qué vale? precio, tarifas', 'es')).toEqual([PRICE_TERM, PRICE_TERM, PRICE_TERM, PRICE_TERM]);
    expect(analyse('Limpieza | 45 €', 'es')).toEqual(['limpiez', '45', PRICE_TERM]);
    expect(analyse('How much does it cost? Rates from $30', 'en')).toEqual([PRICE_TERM, PRICE_TERM, PRICE_TERM, '30']);
  });

  it('gives hours words and a clock time one term, so "¿a qué hora abrís el viernes?" meets "Viernes | 9:00–15:00"', () => {
    expect(analyse('¿A qué hora abrís el viernes?', 'es')).toEqual([HOURS_TERM, HOURS_TERM, 'viern']);
    expect(analyse('Viernes | 9:00–15:00', 'es')).toEqual(['viern', HOURS_TERM, '9', '00', HOURS_TERM, '15', '00']);
    expect(analyse('Open 21h30', 'en')).toEqual([HOURS_TERM, '21h30', HOURS_TERM]);
    // A price with decimals is not a clock time.
    expect(analyse('12.50 € y 3,200.50', 'es')).not.toContain(HOURS_TERM);
  });

  it('marks a whole clock time for highlighting and gives "¿dónde estáis?" the place term', () => {
    const text = 'Sábados 10:00–14:00';
    expect(analyseWords(text, 'es').filter((w) => w.term === HOURS_TERM).map((w) => text.slice(w.start, w.end))).toEqual(['10:00', '14:00']);
    expect(analyse('¿Dónde estáis?', 'es')).toEqual([PLACE_TERM, PLACE_TERM]);
    expect(analyse('Estamos en la calle de Alcalá 214', 'es')).toContain(PLACE_TERM);
  });
});

describe('analyse: a question in the other language', () => {
  it('drops English stop words for a Spanish agent and keeps borrowed plurals together', () => {
    expect(analyse('What is your refund policy?', 'es')).toEqual(analyse('refunds policy', 'es'));
    expect(analyse('brackets', 'es')).toEqual(analyse('bracket', 'es'));
    expect(analyse('How much is it?', 'es')).toEqual([]);
    expect(analyse('How much does it cost?', 'es')).toEqual([PRICE_TERM]);
  });

  it('keeps English words that are Spanish stop words for an English agent ("no", "sea")', () => {
    expect(analyse('Sea view, no smokers', 'en')).toEqual(['sea', 'view', 'no', 'smoker']);
    expect(analyse('¿Cuánto cuesta la bici?', 'en')).toEqual([PRICE_TERM, 'bici']);
  });
});

describe('analyse: the customer vocabulary', () => {
  it('gives the words of one ring one term, in either language and inflected, so the question meets the passage whatever the wording', () => {
    const same = (a: string, la: 'es' | 'en', b: string, lb: 'es' | 'en' = la) => expect(analyse(a, la)).toEqual(analyse(b, lb));
    same('aparcar', 'es', 'parking');
    same('estacionamiento', 'es', 'aparcamientos');
    same('celíaca', 'es', 'gluten');
    same('lactosa', 'es', 'lácteos');
    same('plazos', 'es', 'financiación');
    same('mi hijo', 'es', 'menores');
    same('turno', 'es', 'cita');
    same('puncture', 'en', 'pinchazo', 'es');
    same('electric', 'en', 'e-bikes');
    same('insurance', 'en', 'waiver');
    // Price words, payment included ("¿se paga?" meets "Precio: Gratis").
    expect(analyse('¿La primera consulta se paga?', 'es')).toContain(PRICE_TERM);
    expect(analyse('Precio: Gratis', 'es')).toEqual([PRICE_TERM, PRICE_TERM]);
    // Words outside any ring keep their own term.
    expect(analyse('ortodoncia', 'es')).toEqual(['ortodonci']);
  });

  it('makes a multi-word form one term whose words do not count on their own, marked over the whole phrase', () => {
    expect(analyse('I got a flat tyre', 'en')).toEqual(analyse('a puncture', 'en'));
    expect(analyse('Somos 14 para cenar', 'es')).toEqual(analyse('grupo de cena', 'es'));
    expect(analyse('en 12 meses sin intereses', 'es')).toEqual(['12', analyse('a plazos', 'es')[0]]);
    expect(analyse('Mi hijo tiene 15 años', 'es')).toEqual(analyse('hijo, edad', 'es'));
    expect(analyse('Can I rent on my own?', 'en')).toEqual(analyse('rent accompanied', 'en'));
    const text = 'Un pinchazo en 12 meses sin intereses';
    const phrase = analyseWords(text, 'es').at(-1)!;
    expect(text.slice(phrase.start, phrase.end)).toBe('meses sin intereses');
  });

  it('weighs weak words and numbers a quarter and topic words fully', () => {
    expect(weightOfTerm(analyse('normal', 'es')[0]!, 'es')).toBe(0.25);
    expect(weightOfTerm(analyse('cerca', 'es')[0]!, 'es')).toBe(0.25);
    expect(weightOfTerm('15', 'es')).toBe(0.25);
    expect(weightOfTerm(analyse('whole', 'en')[0]!, 'en')).toBe(0.25);
    expect(weightOfTerm(analyse('wifi', 'es')[0]!, 'es')).toBe(1);
    expect(weightOfTerm(analyse('limpieza', 'es')[0]!, 'es')).toBe(1);
  });
});

describe('analyseWords: offsets around characters that fold to another length', () => {
  it('keeps phrase offsets right after emoji and ligatures', () => {
    const text = '🚲 İ ﬁ: tengo un pinchazo, ¿mesa para 4 personas?';
    const words = analyseWords(text, 'es');
    for (const w of words) expect(text.slice(w.start, w.end)).toMatch(/^[\p{L}\p{N}]/u);
    expect(words.some((w) => text.slice(w.start, w.end) === '4 personas')).toBe(true);
  });
});
