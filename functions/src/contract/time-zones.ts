/**
 * The time zone an account starts with (issue 29): the browser's zone when it lies in the
 * account's country (a clinic in Tenerife keeps Atlantic/Canary), else the country's main zone
 * (Europe/Madrid for Spain), never UTC for a country we know. Browser-safe: the sign-up and the
 * settings form use the same rule.
 */

/**
 * The main zone of countries with more than one (where the people of a small business mostly
 * are: the capital's zone). A country with one zone needs no entry: Intl lists it.
 */
const MAIN_ZONE: Record<string, string> = {
  ES: 'Europe/Madrid',
  MX: 'America/Mexico_City',
  AR: 'America/Argentina/Buenos_Aires',
  CL: 'America/Santiago',
  EC: 'America/Guayaquil',
  CO: 'America/Bogota',
  PE: 'America/Lima',
  VE: 'America/Caracas',
  BO: 'America/La_Paz',
  PY: 'America/Asuncion',
  UY: 'America/Montevideo',
  CR: 'America/Costa_Rica',
  PA: 'America/Panama',
  GT: 'America/Guatemala',
  HN: 'America/Tegucigalpa',
  SV: 'America/El_Salvador',
  NI: 'America/Managua',
  DO: 'America/Santo_Domingo',
  CU: 'America/Havana',
  PR: 'America/Puerto_Rico',
  GQ: 'Africa/Malabo',
  PT: 'Europe/Lisbon',
  BR: 'America/Sao_Paulo',
  US: 'America/New_York',
  CA: 'America/Toronto',
  AU: 'Australia/Sydney',
  RU: 'Europe/Moscow',
  ID: 'Asia/Jakarta',
  KZ: 'Asia/Almaty',
  CD: 'Africa/Kinshasa',
  MN: 'Asia/Ulaanbaatar',
  NZ: 'Pacific/Auckland',
  DE: 'Europe/Berlin',
  GB: 'Europe/London',
  FR: 'Europe/Paris',
  IT: 'Europe/Rome',
};

/** The zone's canonical id, or undefined when the engine does not know it ('Mars/Olympus'). */
function canonical(zone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** The zones Intl lists for a country (V8's Intl.Locale timeZones; empty where the engine lacks it). */
function zonesOf(country: string): string[] {
  try {
    const locale = new Intl.Locale(`und-${country}`) as Intl.Locale & { timeZones?: string[]; getTimeZones?: () => string[] };
    return locale.getTimeZones?.() ?? locale.timeZones ?? [];
  } catch {
    return [];
  }
}

/** Whether `zone` lies in `country` (ids compared in both their given and canonical forms). */
export function zoneInCountry(zone: string, country: string): boolean {
  const wanted = new Set([zone, canonical(zone)]);
  const listed = [...zonesOf(country), ...(MAIN_ZONE[country] ? [MAIN_ZONE[country]] : [])];
  return listed.some((z) => wanted.has(z) || wanted.has(canonical(z)));
}

/** The country's main zone: the table's, else the only one Intl lists; undefined when unknown. */
export function mainTimeZoneOf(country: string | undefined): string | undefined {
  if (!country) return undefined;
  const code = country.toUpperCase();
  if (MAIN_ZONE[code]) return MAIN_ZONE[code];
  const zones = zonesOf(code);
  return zones.length > 0 ? zones[0] : undefined;
}

/**
 * The zone a new account starts with: the browser's (`browserZone`, from Intl) when it is a real
 * zone in `country`, else the country's main zone; without a country, the browser's real zone;
 * undefined when neither is known (the profile then reads as UTC).
 */
export function startingTimeZone(country: string | undefined, browserZone: string | undefined): string | undefined {
  const known = browserZone ? canonical(browserZone) : undefined;
  // UTC is what a browser or a server without a zone reports: it says nothing of where the person is.
  const browser = known && known !== 'UTC' ? browserZone : undefined;
  if (!country) return browser;
  const code = country.toUpperCase();
  if (browser && zoneInCountry(browser, code)) return browser;
  return mainTimeZoneOf(code) ?? browser;
}
