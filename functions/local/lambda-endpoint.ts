/**
 * The Lambda Invoke API, locally, for cognito-local's triggers (issue 32): cognito-local calls its
 * configured trigger functions through aws-sdk v2 `Lambda.invoke` (RequestResponse, a JSON
 * payload), which lands here, and the named function's handler runs in this process with the
 * same environment as every other handler (env.ts, applied by the stack before the first sign-in).
 *
 *   POST /2015-03-31/functions/{name}/invocations
 *     200 + the handler's result as JSON
 *     200 + `X-Amz-Function-Error: Unhandled` + {errorMessage, errorType} when the handler throws
 *     404 ResourceNotFoundException for a function it does not serve
 *
 * Loopback only, on a port of its own (not the public gateway): only cognito-local calls it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { preTokenTrigger } from '../src/routes.js';
import { closeOnce, listen, readBody, sendJson } from './fake-http.js';
import { loadEntry, type AnyHandler } from './handlers.js';
import { lambdaContext } from './sqs-dispatcher.js';

/** The function name cognito-local's config gives the pre-token-generation trigger. */
export const PRE_TOKEN_FUNCTION = 'agentdesk-pre-token';

/** Function name → its handler (loaded on first call, after the handler environment is in place). */
const FUNCTIONS: Record<string, { load: () => Promise<AnyHandler>; timeoutSeconds: number }> = {
  [PRE_TOKEN_FUNCTION]: { load: () => loadEntry(preTokenTrigger.entry), timeoutSeconds: preTokenTrigger.timeoutSeconds },
};

/** Lambda's limit for a synchronous request payload (6 MB). */
const MAX_PAYLOAD_BYTES = 6 * 1024 * 1024;
const INVOKE_RE = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

export interface LambdaEndpoint {
  /** http://127.0.0.1:{port}: cognito-local's `LambdaClient.endpoint`. */
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

export async function startLambdaEndpoint(options: { port?: number; log?: (level: 'warn' | 'error', message: string) => void } = {}): Promise<LambdaEndpoint> {
  const host = '127.0.0.1';
  const handlers = new Map<string, Promise<AnyHandler>>();
  const awsError = (res: ServerResponse, status: number, type: string, message: string) =>
    sendJson(res, status, { Type: 'User', message }, { 'x-amzn-errortype': type });

  const invoke = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const match = INVOKE_RE.exec(url.pathname);
    if (req.method !== 'POST' || !match) return awsError(res, 404, 'UnknownOperationException', 'Only Invoke is served here');
    const name = decodeURIComponent(match[1]!);
    const fn = FUNCTIONS[name];
    if (!fn) return awsError(res, 404, 'ResourceNotFoundException', `Function not found: ${name}`);
    const type = req.headers['x-amz-invocation-type'] ?? 'RequestResponse';
    if (type !== 'RequestResponse') return awsError(res, 400, 'InvalidParameterValueException', 'Only RequestResponse invocations are served locally');
    let event: unknown;
    try {
      const text = await readBody(req, MAX_PAYLOAD_BYTES, () => new Error('too large'));
      event = text ? JSON.parse(text) : {};
    } catch {
      return awsError(res, 400, 'InvalidRequestContentException', 'Could not parse request body into json');
    }
    let loaded = handlers.get(name);
    if (!loaded) {
      loaded = fn.load();
      handlers.set(name, loaded);
      loaded.catch(() => handlers.delete(name));
    }
    try {
      const handler = await loaded;
      const result = await handler(event, lambdaContext(name, fn.timeoutSeconds));
      sendJson(res, 200, result ?? null, { 'x-amz-executed-version': '$LATEST' });
    } catch (error) {
      // As Lambda: the invocation succeeded (200), the function failed.
      const err = error instanceof Error ? error : new Error(String(error));
      options.log?.('warn', `[lambda] ${name} failed: ${err.message}`);
      sendJson(res, 200, { errorMessage: err.message, errorType: err.name }, { 'x-amz-function-error': 'Unhandled', 'x-amz-executed-version': '$LATEST' });
    }
  };

  const server = createServer((req, res) => {
    invoke(req, res).catch((error: unknown) => awsError(res, 500, 'ServiceException', (error as Error).message));
  });
  const port = await listen(server, options.port ?? 0, host);
  return { endpoint: `http://${host}:${port}`, port, stop: closeOnce(server, { cancel: () => undefined }) };
}
