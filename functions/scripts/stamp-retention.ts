/**
 * Re-dates every account's stored data to its retention (issue 33): `npm run retention:stamp`.
 * For data stored before retention existed (no expiry at all) and accounts that never change their
 * privacy settings (a change queues the same job by itself). Lists the user pool's users (Cognito
 * ListUsers pages, never a table Scan), keeps the account owners (a member's PERSON#/MEMBERSHIP
 * pointer names another account) and queues one `retention` job per account on the privacy-jobs
 * queue; the worker walks each account by Query, resumable and idempotent (run it again freely).
 *
 *   npm run retention:stamp                      every account
 *   npm run retention:stamp -- --dry-run         list the accounts, queue nothing
 *   npm run retention:stamp -- --account <id>    one account
 *
 * Where:
 * - AWS: USER_POOL_ID, TABLE_NAME and QUEUE_URL_PRIVACY_JOBS set (the stack's outputs and the
 *   privacy-jobs queue's URL), with the usual AWS credentials and AWS_REGION.
 * - Local: otherwise, the running local stack (`npm start` / `npm run dev`) from .data/local-stack.json:
 *   its in-process queue runs the jobs at once.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyHandlerEnv } from '../local/env.js';
import { readState } from '../local/state.js';

async function reachable(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1500) });
    return true;
  } catch {
    return false;
  }
}

/** The environment the app's composition reads: as given (AWS), else the local stack's. */
async function target(): Promise<string> {
  if (process.env.USER_POOL_ID) {
    for (const name of ['TABLE_NAME', 'QUEUE_URL_PRIVACY_JOBS']) if (!process.env[name]) throw new Error(`${name} is not set (USER_POOL_ID is: the AWS target needs both).`);
    return `pool ${process.env.USER_POOL_ID}, table ${process.env.TABLE_NAME}`;
  }
  const dataDir = join(fileURLToPath(new URL('../..', import.meta.url)), '.data');
  const state = readState(dataDir);
  if (!state?.env || !state.endpoints) throw new Error(`No local stack state in ${dataDir}: start the local stack (npm start) or set USER_POOL_ID, TABLE_NAME and QUEUE_URL_PRIVACY_JOBS for AWS.`);
  if (!(await reachable(state.endpoints.dynamodb)) || !(await reachable(state.endpoints.sqs))) throw new Error('The local stack is not running: start it first (npm start or npm run dev).');
  applyHandlerEnv(state.env);
  return `the local stack (${state.apiUrl ?? ''})`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((a) => a !== '--');
  const dryRun = args.includes('--dry-run');
  const accountAt = args.indexOf('--account');
  const one = accountAt >= 0 ? args[accountAt + 1]?.trim() : undefined;
  if (accountAt >= 0 && !one) {
    console.error('Usage: npm run retention:stamp -- [--dry-run] [--account <accountId>]');
    process.exitCode = 2;
    return;
  }
  const where = await target();
  // Imported once the environment is in place (config() reads it on first use).
  const [{ config }, { cognitoClient }, { userIdPages }, { ownerAccounts, queueRetentionRestamps }] = await Promise.all([
    import('../src/config.js'),
    import('../src/adapters/aws/cognito.js'),
    import('../src/adapters/cognito.js'),
    import('../src/composition/retention-restamp.js'),
  ]);
  let users = 0;
  let accounts = 0;
  const pages = one ? (async function* () { yield [one]; })() : userIdPages(cognitoClient(), config().USER_POOL_ID);
  for await (const ids of pages) {
    users += ids.length;
    const owners = one ? ids : await ownerAccounts(ids);
    accounts += owners.length;
    if (dryRun) for (const id of owners) console.log(id);
    else if (owners.length > 0) await queueRetentionRestamps(owners);
  }
  const skipped = users - accounts;
  console.error(
    `${dryRun ? 'Would queue' : 'Queued'} ${accounts} retention job${accounts === 1 ? '' : 's'} in ${where}` +
      (one ? '.' : ` (${users} users, ${skipped} member${skipped === 1 ? '' : 's'} of another account skipped).`),
  );
}

main().catch((error: unknown) => {
  const { code = '', message = String(error) } = error as { code?: string; message?: string };
  console.error(code === 'ECONNREFUSED' ? 'The local stack is not running: start it first (npm start or npm run dev).' : message);
  process.exitCode = 1;
});
