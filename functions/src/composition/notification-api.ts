/** Wires the notifications group (list, mark read, mark all read): the DynamoDB store only. */
import { createNotificationService } from '../domain/notifications/service.js';
import { once } from '../lib/once.js';
import { notificationRepository } from './notification-store.js';

export const notificationService = once(() => createNotificationService({ notifications: notificationRepository() }));
