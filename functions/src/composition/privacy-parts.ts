/**
 * The parts of a person's data (issue 33), one per kind, walked in PRIVACY_STEPS order by the
 * erasure, the export and the lookup (domain/privacy). Each part's adapter lives under
 * adapters/dynamo/privacy/; add its factory to the list below.
 */
import { PRIVACY_STEPS } from '../contract/privacy.js';
import type { PersonDataPart } from '../domain/privacy/ports.js';
import { once } from '../lib/once.js';

export const personDataParts = once((): PersonDataPart[] => {
  const parts: PersonDataPart[] = [
    // calls, conversations, bookings, notifications, contact: one line each.
  ];
  return parts.sort((a, b) => PRIVACY_STEPS.indexOf(a.step) - PRIVACY_STEPS.indexOf(b.step));
});
