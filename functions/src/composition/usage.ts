/**
 * Plan-limit enforcement for the route groups where usage happens (contacts, messages, voice):
 * `usageService().reserve(userId, 'contacts')` before writing, `release` on rollback/delete.
 * DynamoDB only.
 */
import { createUsageService } from '../domain/billing/usage.js';
import { once } from '../lib/once.js';
import { subscriptionRepository, usageRepository } from './billing-table.js';

export const usageService = once(() =>
  createUsageService({ subscriptions: subscriptionRepository(), usage: usageRepository() }),
);
