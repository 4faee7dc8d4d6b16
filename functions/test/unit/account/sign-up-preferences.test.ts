/** What a sign-up page tells about the person (issue 29): their language and the zone their account starts with. */
import { describe, expect, it } from 'vitest';
import { languageFromAcceptLanguage } from '../../../src/contract/auth.js';
import { mainTimeZoneOf, startingTimeZone, zoneInCountry } from '../../../src/contract/time-zones.js';

describe('languageFromAcceptLanguage', () => {
  it.each([
    ['es-ES,es;q=0.9,en;q=0.8', 'es'],
    ['es-MX', 'es'],
    ['en-US,en;q=0.9,es;q=0.8', 'en'],
    ['fr-FR,fr;q=0.9,es;q=0.8,en;q=0.7', 'es'],
    ['en;q=0.5,es;q=0.9', 'es'],
    ['es;q=0,en', 'en'],
    ['fr-FR,de', undefined],
    ['', undefined],
    [undefined, undefined],
    ['es;q=abc,en;q=0.3', 'en'],
  ])('%j → %s', (header, language) => {
    expect(languageFromAcceptLanguage(header)).toBe(language);
  });
});

describe('the zone an account starts with', () => {
  it.each([
    ['ES', undefined, 'Europe/Madrid'],
    ['ES', 'UTC', 'Europe/Madrid'],
    ['ES', 'Etc/UTC', 'Europe/Madrid'],
    ['ES', 'Atlantic/Canary', 'Atlantic/Canary'],
    ['ES', 'America/Bogota', 'Europe/Madrid'],
    ['MX', undefined, 'America/Mexico_City'],
    ['MX', 'America/Monterrey', 'America/Monterrey'],
    ['AR', undefined, 'America/Argentina/Buenos_Aires'],
    ['AR', 'America/Buenos_Aires', 'America/Buenos_Aires'],
    ['CO', undefined, 'America/Bogota'],
    ['CL', undefined, 'America/Santiago'],
    ['PE', undefined, 'America/Lima'],
    ['UY', undefined, 'America/Montevideo'],
    ['es', undefined, 'Europe/Madrid'],
    [undefined, 'Europe/Madrid', 'Europe/Madrid'],
    [undefined, 'UTC', undefined],
    [undefined, 'Not/AZone', undefined],
  ])('%s with a browser in %s → %s', (country, browser, zone) => {
    expect(startingTimeZone(country, browser)).toBe(zone);
  });

  it('knows a zone of a country from its aliases, and names a main zone for one-zone countries it has no entry for', () => {
    expect(zoneInCountry('America/Argentina/Buenos_Aires', 'AR')).toBe(true);
    expect(zoneInCountry('Europe/Madrid', 'MX')).toBe(false);
    expect(mainTimeZoneOf('HN')).toBe('America/Tegucigalpa');
    expect(mainTimeZoneOf('JP')).toBe('Asia/Tokyo');
    expect(mainTimeZoneOf(undefined)).toBeUndefined();
  });
});
