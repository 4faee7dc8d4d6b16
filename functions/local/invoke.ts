/**
 * `npm run invoke -- <function> <event.json>`: run one handler from the route manifest against
 * the RUNNING local stack and print its response (what `sam local invoke` does for SAM).
 *
 *   <function>  a route group (auth, account, ...), a worker/queue name (url-scrape, ...), a
 *               schedule (stale-calls, with events/scheduled.json) or a WebSocket API
 *               (voice-relay, with events/voice-relay-*.json: $connect, a $default frame, $disconnect),
 *               or `api` to pick the route group from the event's routeKey
 *   <event>     a JSON event file, e.g. events/api-me.json (see events/README.md)
 *
 * The event is passed as is: on API events the authorizer claims in the file stand in for a
 * verified token, as with `sam local invoke`. The handler runs in this process with the same
 * environment the running stack gives its handlers (read from .data/local-stack.json).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { routeGroups, schedules, socketApis, workers } from '../src/routes.js';
import { applyHandlerEnv } from './env.js';
import { matchRoute } from './gateway.js';
import { loadEntry } from './handlers.js';
import { lambdaContext } from './sqs-dispatcher.js';
import { readState, stateFile } from './state.js';

// This project runs on Node 20 on purpose (ARCHITECTURE §5); the SDK's Node 22 notice is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const repoDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const dataDir = join(repoDir, '.data');

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function reachable(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1500) });
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const [name, file] = process.argv.slice(2).filter((a) => a !== '--');
  if (!name || !file) {
    fail(
      'Usage: npm run invoke -- <function> <event.json>\n' +
        `  functions: api (route group from the event's routeKey), ${Object.keys(routeGroups).join(', ')}, ` +
        `${[...Object.keys(workers), ...Object.keys(schedules), ...Object.keys(socketApis)].join(', ')}`,
    );
  }

  let event: Record<string, unknown>;
  try {
    event = JSON.parse(readFileSync(resolve(process.cwd(), file), 'utf8')) as Record<string, unknown>;
  } catch (error) {
    fail(`Cannot read ${file}: ${(error as Error).message}`);
  }

  let entry: string;
  let functionName = name;
  let timeout: number;
  if (name === 'api') {
    const routeKey = String(event.routeKey ?? '');
    const [method = '', path = ''] = routeKey.split(' ');
    const route = matchRoute(method, path);
    if (!route) fail(`Route "${routeKey}" is not in the route manifest (functions/src/routes.ts) yet.`);
    functionName = route.group;
  }
  const group = (routeGroups as Record<string, { entry: string; timeout?: number } | undefined>)[functionName];
  const worker = (workers as Record<string, { entry: string; timeout: number } | undefined>)[functionName];
  const schedule = (schedules as Record<string, { entry: string; timeout: number } | undefined>)[functionName];
  const socketApi = (socketApis as Record<string, { entry: string; timeout: number } | undefined>)[functionName];
  if (group) {
    entry = group.entry;
    timeout = Math.min(group.timeout ?? 30, 30);
  } else if (worker) {
    entry = worker.entry;
    timeout = worker.timeout;
  } else if (schedule) {
    entry = schedule.entry;
    timeout = schedule.timeout;
  } else if (socketApi) {
    entry = socketApi.entry;
    timeout = socketApi.timeout;
  } else {
    fail(
      `"${functionName}" is not in the route manifest (functions/src/routes.ts) yet.\n` +
        `  route groups: ${Object.keys(routeGroups).join(', ')}\n  workers: ${Object.keys(workers).join(', ')}\n  schedules: ${Object.keys(schedules).join(', ')}\n  WebSocket APIs: ${Object.keys(socketApis).join(', ')}`,
    );
  }

  const state = readState(dataDir);
  if (!state?.env || !state.endpoints) {
    fail(`No local stack found (${stateFile(dataDir)} is missing). Start it first: npm start`);
  }
  if (!(await reachable(state.endpoints.dynamodb)) || !(await reachable(state.endpoints.cognito))) {
    fail('The local stack is not running. Start it first (npm start) in another terminal, then invoke again.');
  }
  applyHandlerEnv(state.env);

  const handler = await loadEntry(entry).catch((error: Error) => fail(`Cannot load ${entry}: ${error.message}`));
  const context = lambdaContext(`agentdesk-${functionName}`, timeout);
  const started = Date.now();
  try {
    const result = await handler(event, context);
    console.error(`[invoke] ${functionName} (${entry}) finished in ${Date.now() - started} ms`);
    console.log(JSON.stringify(result ?? null, null, 2));
    process.exit(0);
  } catch (error) {
    console.error(`[invoke] ${functionName} threw after ${Date.now() - started} ms:`);
    console.error(error);
    process.exit(1);
  }
}

void main();
