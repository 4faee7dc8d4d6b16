/**
 * The account's country for showing phone numbers (issue 29): set by the session while it renders
 * (like the display time zone), read by shared/phone.ts. Its own module, so the login chunk that
 * sets it does not carry the phone metadata that reads it.
 */
let displayCountry = 'US';

export function setDisplayCountry(country: string | null | undefined): void {
  displayCountry = country && /^[A-Z]{2}$/.test(country) ? country : 'US';
}

export const getDisplayCountry = () => displayCountry;
