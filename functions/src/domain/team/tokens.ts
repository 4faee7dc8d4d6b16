/** An invitation link's secret: 32 random bytes, base64url (43 characters); only its SHA-256 is stored. */
import { createHash, randomBytes } from 'node:crypto';

export function newInvitationToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashInvitationToken(token) };
}

export const hashInvitationToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
