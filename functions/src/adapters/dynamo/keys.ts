/** Key helpers for items that exist before (or without) a user: keyed by the e-mail's SHA-256. */
import { createHash } from 'node:crypto';

export const emailHash = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
export const emailPk = (email: string) => `EMAIL#${emailHash(email)}`;
export const userPk = (userId: string) => `USER#${userId}`;
/** A call's calls-by-number item (issue 17: the contact's timeline), beside the call; written by voice-calls.ts, read by contact-timeline.ts. */
export const callByNumberSk = (e164: string, callId: string) => `VCALLNUM#${e164}#${callId}`;
