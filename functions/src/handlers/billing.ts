/** /api/subscription calls that talk to Stripe: checkout, plan change, cancel, portal, verify-session ('user' auth). */
import { cancelRequest, changePlanRequest, checkoutRequest } from '../contract/billing.js';
import { billingService } from '../composition/billing.js';
import { billingServerMessages as msg } from '../domain/billing/messages.js';
import { ValidationError } from '../domain/errors.js';
import { httpGroup, json, parseWith, type RouteTable } from '../http/handler.js';
import { recordRouteActivity } from '../composition/activity.js';

/** Stripe checkout session ids: cs_test_..., cs_live_... (anything else cannot be one). */
const SESSION_ID = /^cs_[A-Za-z0-9_]{1,255}$/;

export const routes: RouteTable = {
  'POST /api/subscription/checkout': async (req) => {
    const userId = req.userId();
    const input = parseWith(checkoutRequest, req.json());
    return { message: msg.checkoutCreated, data: await billingService().checkout(userId, input.plan) };
  },
  'GET /api/subscription/verify-session/{id}': async (req) => {
    const userId = req.userId();
    const sessionId = req.params.id ?? '';
    if (!SESSION_ID.test(sessionId)) throw new ValidationError(msg.invalidSessionId, 'id');
    // SPEC §7: success, message, session and subscription at the top level.
    return { raw: json(200, await billingService().verifySession(userId, sessionId)) };
  },
  'PUT /api/subscription/plan': async (req) => {
    const userId = req.userId();
    const input = parseWith(changePlanRequest, req.json());
    return { message: msg.planChanged, data: await billingService().changePlan(userId, input.plan) };
  },
  'POST /api/subscription/cancel': async (req) => {
    const userId = req.userId();
    const input = parseWith(cancelRequest, req.json());
    const { subscription, message } = await billingService().cancel(userId, input.immediately);
    return { message, data: subscription };
  },
  'POST /api/subscription/portal': async (req) => {
    const userId = req.userId();
    return { message: msg.portalCreated, data: await billingService().portal(userId) };
  },
};

export const handler = httpGroup(routes, { activity: recordRouteActivity });
