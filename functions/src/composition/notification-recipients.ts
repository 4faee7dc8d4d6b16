/**
 * Who an alert goes to (issue 32): the account's active people, read through the team's
 * TeamMembers port (domain/team/ports.ts, adapters/dynamo/team.ts) — a single-user account has
 * one, its owner, whose person id is the account id, so its alerts stay exactly as before.
 */
import type { Recipients } from '../domain/notifications/ports.js';
import { teamMembers } from './team-members.js';

export const notificationRecipients = (): Recipients => teamMembers();
