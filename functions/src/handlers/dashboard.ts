/** /api/dashboard: the signed-in user's figures from the activity counters ('user' auth). */
import { dashboardQuery } from '../contract/dashboard.js';
import { dashboardService } from '../composition/dashboard.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';

export const routes: RouteTable = {
  'GET /api/dashboard': async (req) => {
    const userId = req.userId();
    const { timeFilter } = parseWith(dashboardQuery, req.query);
    return { data: await dashboardService().dashboard(userId, timeFilter) };
  },
  'GET /api/dashboard/voice-trends': async (req) => ({ data: await dashboardService().voiceTrends(req.userId()) }),
};

export const handler = httpGroup(routes);
