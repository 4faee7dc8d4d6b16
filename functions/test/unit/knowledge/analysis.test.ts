import { describe, expect, it } from 'vitest';
import { analyse, analyseWords, chunkTerms } from '../../../src/domain/knowledge/analysis.js';

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
    expect(analyse('¿Cuánto cuesta la limpieza dental de 45 €?', 'es')).toEqual(['cuest', 'limpiez', 'dental', '45']);
    expect(analyse('¿A qué hora abrís el viernes?', 'es')).toEqual(['hora', 'viern']);
  });

  it('drops the customer\'s second-person plural verbs (documents never say them), accents optional, not "seis" or nouns in -es', () => {
    expect(analyse('¿Cerráis en agosto? ¿Hacéis descuentos? cerrais haceis abrís', 'es')).toEqual(['agost', 'descuent']);
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
    expect(analyse('How much does the deposit cost?', 'en')).toEqual(['deposit', 'cost']);
    expect(analyse('What is the price of the Straße service in Zürich?', 'en')).toEqual(['price', 'straße', 'service', 'zurich']);
  });
});

describe('analyseWords and chunkTerms', () => {
  it('gives each term the offsets of its word in the original text, accents included', () => {
    const text = 'Horario: Sábados 10:00–14:00';
    const words = analyseWords(text, 'es');
    expect(words.map((w) => text.slice(w.start, w.end))).toEqual(['Horario', 'Sábados', '10', '00', '14', '00']);
    expect(words[1]!.term).toBe(analyse('sabado', 'es')[0]);
  });

  it('keeps a decomposed accent inside its word', () => {
    const text = 'Sa\u0301bados';
    expect(analyseWords(text, 'es')).toEqual([{ term: analyse('sabado', 'es')[0], start: 0, end: text.length }]);
  });

  it('indexes the heading path with the text', () => {
    expect(chunkTerms({ headings: ['Horarios', 'Verano'], text: 'Viernes | 9:00–15:00' }, 'es')).toEqual(
      analyse('Horarios Verano Viernes 9 00 15 00', 'es'),
    );
  });
});
