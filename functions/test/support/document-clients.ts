/**
 * The document client the tests (and benches) hold. They seed and read the table with the AWS
 * SDK's commands (@aws-sdk/lib-dynamodb: an independent view of what the app wrote) and hand
 * the same client to the app's repositories, whose commands are the app's fetch-based client's
 * (src/adapters/aws/dynamo-document.ts, issue 28): send() takes both and routes each command to
 * its own client.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient as SdkDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { marshallOptions } from '@aws-sdk/util-dynamodb';
import { createDocumentClient, DocumentCommand, type DynamoDBDocumentClient } from '../../src/adapters/aws/dynamo-document.js';

export type TestDocumentClient = SdkDocumentClient & DynamoDBDocumentClient;

export interface TestDocumentClientOptions {
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** The SDK half's (the app's commands are marshalled with the options the functions use). */
  marshallOptions?: marshallOptions;
  /** Every request of the app's commands goes through it (e.g. to count them). */
  fetch?: typeof fetch;
}

export function testDocumentClientAt(endpoint: string, options: TestDocumentClientOptions = {}): TestDocumentClient {
  const credentials = options.credentials ?? { accessKeyId: 'local', secretAccessKey: 'local' };
  const region = 'us-east-1';
  const sdk = SdkDocumentClient.from(new DynamoDBClient({ endpoint, region, credentials }), { marshallOptions: options.marshallOptions ?? { removeUndefinedValues: true } });
  const app = createDocumentClient({
    endpoint,
    region,
    credentials: async () => credentials,
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return new Proxy(sdk, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver) as unknown;
      return (command: unknown, ...rest: unknown[]) =>
        command instanceof DocumentCommand ? app.send(command) : (target.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
    },
  }) as TestDocumentClient;
}
