/**
 * The business's name as the AI notice says it (issue 33): its location's name (Profile → Business
 * location), else the account's (its first owner's profile name). One BatchGetItem of the two
 * items, names only; a warm container keeps it for a minute, as the privacy settings.
 */
import type { DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { batchGetItems } from './batch.js';
import { BUSINESS_LOCATION_SK } from './business-location.js';
import { userPk } from './keys.js';

const CACHE_MS = 60_000;
const CACHE_MAX = 500;

export function dynamoBusinessName(db: DynamoDBDocumentClient, tableName: string, now: () => number = Date.now) {
  const cache = new Map<string, { at: number; name: string }>();
  return async (accountId: string): Promise<string> => {
    const hit = cache.get(accountId);
    if (hit && now() - hit.at < CACHE_MS) return hit.name;
    const items = await batchGetItems(db, tableName, [
      { pk: userPk(accountId), sk: BUSINESS_LOCATION_SK },
      { pk: userPk(accountId), sk: 'PROFILE' },
    ], { projection: { ProjectionExpression: '#sk, #n', ExpressionAttributeNames: { '#sk': 'sk', '#n': 'name' } } });
    const nameOf = (sk: string) => {
      const name = items.find((i) => i.sk === sk)?.name;
      return typeof name === 'string' ? name.trim() : '';
    };
    const name = nameOf(BUSINESS_LOCATION_SK) || nameOf('PROFILE');
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(accountId, { at: now(), name });
    return name;
  };
}
