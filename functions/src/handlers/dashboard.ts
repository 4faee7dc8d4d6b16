/** /api/dashboard: the signed-in user's figures from the activity counters, and the getting-started checklist ('user' auth). */
import { dashboardQuery } from '../contract/dashboard.js';
import { gettingStartedUpdate } from '../contract/getting-started.js';
import { dashboardService, gettingStarted } from '../composition/dashboard.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';

export const routes: RouteTable = {
  'GET /api/dashboard': async (req) => {
    const userId = req.userId();
    const { timeFilter } = parseWith(dashboardQuery, req.query);
    return { data: await dashboardService().dashboard(userId, timeFilter) };
  },
  'GET /api/dashboard/voice-trends': async (req) => ({ data: await dashboardService().voiceTrends(req.userId()) }),
  'GET /api/dashboard/getting-started': async (req) => ({ data: await gettingStarted().get(req.userId()) }),
  'PUT /api/dashboard/getting-started': async (req) => {
    const userId = req.userId();
    const { hidden } = parseWith(gettingStartedUpdate, req.json());
    return { data: await gettingStarted().setHidden(userId, hidden) };
  },
};

export const handler = httpGroup(routes);
