/**
 * Makes a user an administrator (Cognito group 'admin'): `npm run make-admin -- <email>`;
 * `--remove` takes the role away. The cognito:groups claim the admin routes check changes with the
 * user's next token: the app refreshes its 5-minute access token before it expires.
 *
 * Which user pool:
 * - AWS: USER_POOL_ID set (the stack output), with the usual AWS credentials and AWS_REGION.
 * - Local: otherwise, the running (or last) local stack's pool from .data/local-stack.json
 *   (cognito-local must be running: `npm start` or `npm run dev`).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AdminAddUserToGroupCommand,
  AdminRemoveUserFromGroupCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { SESSION_TOKENS } from '../src/contract/auth.js';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../local/services.js';
import { readState } from '../local/state.js';

const ADMIN_GROUP = 'admin';

function target(): { client: CognitoIdentityProviderClient; userPoolId: string; where: string } {
  const env = process.env;
  if (env.USER_POOL_ID) {
    return { client: new CognitoIdentityProviderClient({ region: env.AWS_REGION }), userPoolId: env.USER_POOL_ID, where: `AWS pool ${env.USER_POOL_ID}` };
  }
  const dataDir = join(fileURLToPath(new URL('../..', import.meta.url)), '.data');
  const state = readState(dataDir);
  if (!state?.userPoolId || !state.endpoints?.cognito) {
    throw new Error(`No local stack state in ${dataDir}: start the local stack (npm start) or set USER_POOL_ID for AWS.`);
  }
  return {
    client: new CognitoIdentityProviderClient({ endpoint: state.endpoints.cognito, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
    userPoolId: state.userPoolId,
    where: `local pool ${state.userPoolId} (${state.endpoints.cognito})`,
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const remove = args.includes('--remove');
  const email = args.find((a) => !a.startsWith('--'))?.trim().toLowerCase();
  if (!email || !email.includes('@')) {
    console.error('Usage: npm run make-admin -- <email> [--remove]');
    process.exitCode = 2;
    return;
  }
  const { client, userPoolId, where } = target();
  try {
    // Users are created with their (lower-case) e-mail as the username (adapters/cognito.ts).
    const input = { UserPoolId: userPoolId, Username: email, GroupName: ADMIN_GROUP };
    await client.send(remove ? new AdminRemoveUserFromGroupCommand(input) : new AdminAddUserToGroupCommand(input));
    console.log(`${email} ${remove ? 'is no longer' : 'is now'} an administrator in ${where}. It applies within ${SESSION_TOKENS.accessMinutes} minutes, when their session next refreshes its token (or when they sign in again).`);
  } finally {
    client.destroy();
  }
}

main().catch((error: unknown) => {
  const { name = '', code = '', message = String(error) } = error as { name?: string; code?: string; message?: string };
  if (name === 'UserNotFoundException') console.error('No user with this e-mail in the pool.');
  else if (code === 'ECONNREFUSED') console.error('cognito-local is not running: start the local stack first (npm start or npm run dev).');
  else console.error(message);
  process.exitCode = 1;
});
