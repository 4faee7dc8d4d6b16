/**
 * The paid-feature check of the HTTP layer (routes flagged `requires: 'subscription'`): one
 * GetItem of the user's SUBSCRIPTION item projecting `status`, the same rule /api/me's
 * hasActiveSubscription answers the app with. Kept apart from billing-table.ts so every route
 * group does not bundle the billing repositories and plan rules for it.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { hasActiveSubscription } from '../adapters/dynamo/users.js';

export const userHasActiveSubscription = (userId: string): Promise<boolean> =>
  hasActiveSubscription(documentClient(), config().TABLE_NAME, userId);
