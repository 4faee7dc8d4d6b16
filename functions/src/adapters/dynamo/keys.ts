/** Key helpers for items that exist before (or without) a user: keyed by the e-mail's SHA-256. */
import { createHash } from 'node:crypto';

export const emailHash = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
export const emailPk = (email: string) => `EMAIL#${emailHash(email)}`;
export const userPk = (userId: string) => `USER#${userId}`;
