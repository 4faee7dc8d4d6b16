/**
 * The local Lambda Invoke endpoint (issue 32, local/lambda-endpoint.ts), through the client that
 * calls it in the local runtime: cognito-local's aws-sdk v2 `Lambda.invoke`. A handler that throws
 * is the function's failure (200 + FunctionError 'Unhandled' + errorMessage, which cognito-local
 * turns into UserLambdaValidationException); an unknown function or a malformed payload is the
 * service's refusal. The sign-in path itself is covered by integration/team-token-claims.test.ts.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRE_TOKEN_FUNCTION, startLambdaEndpoint, type LambdaEndpoint } from '../../../local/lambda-endpoint.js';

interface InvokeOutput {
  StatusCode?: number;
  FunctionError?: string;
  Payload?: string;
}
interface LambdaV2 {
  invoke(params: { FunctionName: string; InvocationType?: string; Payload: string }): { promise(): Promise<InvokeOutput> };
}

const require = createRequire(import.meta.url);
let endpoint: LambdaEndpoint;
let lambda: LambdaV2;

beforeAll(async () => {
  endpoint = await startLambdaEndpoint();
  const AWS = require('aws-sdk') as { Lambda: new (options: Record<string, unknown>) => LambdaV2 };
  // As cognito-local builds it from .cognito/config.json (services.ts startCognito).
  lambda = new AWS.Lambda({ endpoint: endpoint.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxRetries: 0 });
});
afterAll(() => endpoint?.stop());

describe('local Lambda Invoke endpoint', () => {
  it('listens on loopback only', () => {
    expect(new URL(endpoint.endpoint).hostname).toBe('127.0.0.1');
  });

  it("a handler that throws: the function's error, as Lambda reports it", async () => {
    const event = { version: '2', triggerSource: 'TokenGeneration_Authentication', request: { userAttributes: {} }, response: {} };
    const out = await lambda.invoke({ FunctionName: PRE_TOKEN_FUNCTION, InvocationType: 'RequestResponse', Payload: JSON.stringify(event) }).promise();
    expect(out.StatusCode).toBe(200);
    expect(out.FunctionError).toBe('Unhandled');
    expect(JSON.parse(String(out.Payload))).toMatchObject({ errorMessage: 'The user has no sub', errorType: 'Error' });
  });

  it('an unknown function: ResourceNotFoundException', async () => {
    await expect(lambda.invoke({ FunctionName: 'agentdesk-nope', Payload: '{}' }).promise()).rejects.toMatchObject({ code: 'ResourceNotFoundException', statusCode: 404 });
  });

  it('only synchronous invocations, with a JSON payload', async () => {
    await expect(lambda.invoke({ FunctionName: PRE_TOKEN_FUNCTION, InvocationType: 'Event', Payload: '{}' }).promise()).rejects.toMatchObject({ statusCode: 400 });
    const res = await fetch(`${endpoint.endpoint}/2015-03-31/functions/${PRE_TOKEN_FUNCTION}/invocations`, { method: 'POST', body: '{not json' });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-amzn-errortype')).toBe('InvalidRequestContentException');
    expect((await fetch(`${endpoint.endpoint}/2015-03-31/functions`)).status).toBe(404);
  });
});
