/**
 * The uniqueness key of a name the owner types (a saved reply's title, a booking service's or staff
 * member's name): case-insensitive ("Cita" = "cita"), accents kept ("Cita médica" and "Cita medica"
 * are two names), Unicode-normalised so composed and decomposed forms agree. Apart from the request
 * schemas (no zod): the agent's bookings on a call read it, and the call's bundle stays small.
 */
export const nameKey = (name: string): string => name.trim().normalize('NFC').toLocaleLowerCase('es');
