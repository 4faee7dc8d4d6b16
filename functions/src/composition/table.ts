/**
 * What the auth-related route groups keep in the single table: profiles (with the WhatsApp
 * allow-list that shapes a `User`) and the per-e-mail throttles. Kept apart from user-view.ts
 * so route groups that never answer with a `User` (codes) do not bundle the avatar presigner.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoRateLimiter } from '../adapters/dynamo/rate-limits.js';
import { DynamoUserRepository } from '../adapters/dynamo/users.js';
import { systemClock } from '../domain/auth/ports.js';

export function tableDeps() {
  const c = config();
  return {
    clock: systemClock,
    users: new DynamoUserRepository(documentClient(), c.TABLE_NAME),
    rateLimiter: new DynamoRateLimiter(documentClient(), c.TABLE_NAME, systemClock),
    whatsappUserIds: c.WHATSAPP_USER_IDS,
    defaultCountry: c.CONTACTS_DEFAULT_COUNTRY,
  };
}
