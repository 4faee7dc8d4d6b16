/**
 * The activity log's writer for the HTTP layer (issue 32): a route that declares `activity` in
 * the manifest gets one entry after it succeeded — who (the member or the API key), what (the
 * action, and the object its path names), when. Imported by http/handler.ts directly, like the
 * subscription gate, so every route group records the same way without wiring.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { logger } from '../adapters/logger.js';
import { DynamoActivityLog } from '../adapters/dynamo/team-activity.js';
import type { ActivityAction } from '../contract/team-roles.js';
import type { Request, RouteResult } from '../http/handler.js';
import { once } from '../lib/once.js';

export const activityLog = once(() => new DynamoActivityLog(documentClient(), config().TABLE_NAME));

/**
 * The object a route acted on: its action's noun, and its id — the path's (the last path
 * parameter), else the `_id` of what the route created and answered (an agent, an invitation).
 */
export function routeObject(action: ActivityAction, params: Record<string, string>, result?: RouteResult): { type: string; id: string | null } {
  const type = action.slice(0, action.indexOf('.'));
  const ids = Object.values(params);
  if (ids.length > 0) return { type, id: ids[ids.length - 1]! };
  const data = result && !('raw' in result) ? (result.data as { _id?: unknown } | undefined) : undefined;
  const created = data && typeof data === 'object' && typeof data._id === 'string' && data._id.length <= 64 ? data._id : null;
  return { type, id: created };
}

/**
 * Records the route's action. The route already succeeded and its answer stands: a log write
 * that fails is logged, not turned into an error the caller would retry (and do twice).
 */
export async function recordRouteActivity(req: Request, action: ActivityAction, result?: RouteResult): Promise<void> {
  try {
    const details = result && !('raw' in result) && result.activityDetails && Object.keys(result.activityDetails).length > 0 ? result.activityDetails : undefined;
    await activityLog().append(req.userId(), { action, actor: req.actor(), object: routeObject(action, req.params, result), ...(details ? { details } : {}) });
  } catch (error) {
    logger.error('Activity log: an entry could not be written', { action, error: error as Error });
  }
}
