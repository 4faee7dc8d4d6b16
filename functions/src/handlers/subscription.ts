/** /api/subscription: current subscription, plans, analytics, limit checks ('user' auth, DynamoDB only). */
import { checkLimitRequest } from '../contract/billing.js';
import { subscriptionService } from '../composition/subscription.js';
import { billingServerMessages } from '../domain/billing/messages.js';
import { limitMessage } from '../domain/billing/rules.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';

export const routes: RouteTable = {
  'GET /api/subscription/current': async (req) => {
    const subscription = await subscriptionService().current(req.userId());
    return subscription ? { data: subscription } : { data: null, message: billingServerMessages.noSubscription };
  },
  'GET /api/subscription/plans': async (req) => ({ data: await subscriptionService().plans(req.userId()) }),
  'GET /api/subscription/analytics': async (req) => ({ data: await subscriptionService().analytics(req.userId()) }),
  'POST /api/subscription/check-limit': async (req) => {
    const userId = req.userId();
    const input = parseWith(checkLimitRequest, req.json());
    const check = await subscriptionService().checkLimit(userId, input.action, input.amount);
    return check.allowed ? { data: check } : { data: check, message: limitMessage(check.action, check.limit) };
  },
};

export const handler = httpGroup(routes);
