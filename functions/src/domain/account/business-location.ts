/**
 * The business's location (Profile → Business location, issue 31): what the agent's send_location
 * tool sends on WhatsApp. The owner types the coordinates ("40.4168, -3.7038") or pastes a Google
 * Maps link; the server finds the coordinates in it (contract parseCoordinates) and stores the
 * location strictly (businessLocationSchema). One per account; absent until saved.
 */
import { businessLocationSchema, mediaMessages, parseCoordinates, type BusinessLocation, type BusinessLocationInput } from '../../contract/whatsapp-media.js';
import { ValidationError } from '../errors.js';

/** Also what the agent runtime reads (agents/runtime/ports.ts BusinessLocationReader, the same get). */
export interface BusinessLocationStore {
  get(userId: string): Promise<BusinessLocation | null>;
  put(userId: string, location: BusinessLocation): Promise<void>;
  delete(userId: string): Promise<void>;
}

export function createBusinessLocations(deps: { store: BusinessLocationStore }) {
  return {
    get: (userId: string): Promise<BusinessLocation | null> => deps.store.get(userId),

    /** 400 with the contract's message when no coordinates can be read from what was typed. */
    async save(userId: string, input: BusinessLocationInput): Promise<BusinessLocation> {
      const coordinates = parseCoordinates(input.coordinates);
      if (!coordinates) throw new ValidationError(mediaMessages.locationCoordinatesInvalid, 'coordinates');
      const parsed = businessLocationSchema.safeParse({ name: input.name, address: input.address, ...coordinates });
      if (!parsed.success) throw new ValidationError(mediaMessages.locationCoordinatesInvalid, 'coordinates');
      await deps.store.put(userId, parsed.data);
      return parsed.data;
    },

    clear: (userId: string): Promise<void> => deps.store.delete(userId),
  };
}

export type BusinessLocations = ReturnType<typeof createBusinessLocations>;
