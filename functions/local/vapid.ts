/**
 * The local runtime's VAPID key pair (issue 29, Web Push): generated once and kept in
 * `<dataDir>/vapid.json`, so browser subscriptions made with its public key stay valid across
 * restarts (a new pair would orphan every subscription). In AWS the pair is a Secrets Manager
 * secret (PUSH_SECRET_ID); these variables are only the local runtime's.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import webpush from 'web-push';

const KEY_RE = /^[A-Za-z0-9_-]+$/;

export function localVapidKeys(dataDir: string): { VAPID_PUBLIC_KEY: string; VAPID_PRIVATE_KEY: string; VAPID_SUBJECT: string } {
  const file = join(dataDir, 'vapid.json');
  if (existsSync(file)) {
    try {
      const stored = JSON.parse(readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown; subject?: unknown };
      if (typeof stored.publicKey === 'string' && KEY_RE.test(stored.publicKey) && typeof stored.privateKey === 'string' && KEY_RE.test(stored.privateKey)) {
        return { VAPID_PUBLIC_KEY: stored.publicKey, VAPID_PRIVATE_KEY: stored.privateKey, VAPID_SUBJECT: typeof stored.subject === 'string' ? stored.subject : 'mailto:alerts@agentdesk.local' };
      }
    } catch {
      // unreadable: a new pair below
    }
  }
  // web-push's own generator: the private key padded to the 32 bytes it requires.
  const pair = { ...webpush.generateVAPIDKeys(), subject: 'mailto:alerts@agentdesk.local' };
  writeFileSync(file, `${JSON.stringify(pair, null, 2)}\n`, { mode: 0o600 });
  return { VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey, VAPID_SUBJECT: pair.subject };
}
