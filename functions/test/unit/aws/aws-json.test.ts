/**
 * SQS, SESv2 and Secrets Manager through aws-json.ts (fetch + Signature V4, issue 28) send the
 * requests the SDK's clients send: each call goes through the app's adapter and through the
 * SDK's client against one loopback server that records path, headers and body.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { awsJsonService, publicEndpoint, signedJsonRequests } from '../../../src/adapters/aws/aws-json.js';
import { SecretsManagerReader } from '../../../src/adapters/aws/secrets-manager.js';
import { SqsJobQueue } from '../../../src/adapters/aws/sqs-jobs.js';
import { changeMessageVisibility, queueUrlOfArn } from '../../../src/adapters/aws/sqs.js';
import { SesMailer } from '../../../src/adapters/mailer.js';

interface Seen {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  body: unknown;
}

let server: Server;
let endpoint: string;
const seen: Seen[] = [];
let reply: unknown = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const h = req.headers;
      seen.push({
        method: req.method!,
        path: req.url!,
        headers: { 'content-type': h['content-type'] as string, 'x-amz-target': h['x-amz-target'] as string, 'x-amzn-query-mode': h['x-amzn-query-mode'] as string, scope: /Credential=[^/]+\/\d+\/([^,]+)/.exec(String(h.authorization))?.[1] },
        body: JSON.parse(body) as unknown,
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  reply = {};
});

const region = 'eu-west-1';
const credentials = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' };

describe('aws-json services send the SDK clients’ requests', () => {
  it('SQS SendMessageBatch (the job queue)', async () => {
    const queueUrl = `${endpoint}/000000000000/call-summary`;
    const queue = new SqsJobQueue(
      awsJsonService({ service: 'sqs', targetPrefix: 'AmazonSQS', jsonVersion: '1.0', region, endpoint, headers: { 'x-amzn-query-mode': 'true' }, credentials: async () => credentials }),
      () => queueUrl,
    );
    reply = { Successful: [{ Id: 'm0', MessageId: '1', MD5OfMessageBody: 'x' }], Failed: [] };
    const job = { userId: 'u1', callId: 'c1' };
    await queue.send('call-summary', [job as never]);
    await new SQSClient({ region, endpoint, credentials, maxAttempts: 1 })
      .send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: [{ Id: 'm0', MessageBody: JSON.stringify(job) }] }))
      .catch(() => undefined); // the SDK also checks the answer's MD5s: only its request matters here

    expect(seen).toHaveLength(2);
    expect(seen[0]).toEqual(seen[1]);
    expect(seen[0]!.headers['x-amz-target']).toBe('AmazonSQS.SendMessageBatch');
  });

  it('SQS ChangeMessageVisibility (the retry schedule of a failed record, issue 34), to the queue its record came from', async () => {
    const queueUrl = queueUrlOfArn('arn:aws:sqs:eu-west-1:123456789012:call-summary', endpoint);
    expect(queueUrl).toBe(`${endpoint}/123456789012/call-summary`);
    expect(queueUrlOfArn('arn:aws:sqs:eu-west-1:123456789012:call-summary', publicEndpoint('sqs', region))).toBe('https://sqs.eu-west-1.amazonaws.com/123456789012/call-summary');
    const sqs = awsJsonService({ service: 'sqs', targetPrefix: 'AmazonSQS', jsonVersion: '1.0', region, endpoint, headers: { 'x-amzn-query-mode': 'true' }, credentials: async () => credentials });
    // SQS answers an empty object: both resolve.
    await expect(changeMessageVisibility(sqs, queueUrl, 'AQEB-handle', 120)).resolves.toBeUndefined();
    await expect(new SQSClient({ region, endpoint, credentials, maxAttempts: 1 }).send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: 'AQEB-handle', VisibilityTimeout: 120 }))).resolves.toBeDefined();

    expect(seen).toHaveLength(2);
    expect(seen[0]).toEqual(seen[1]);
    expect(seen[0]).toMatchObject({ path: '/', headers: { 'x-amz-target': 'AmazonSQS.ChangeMessageVisibility' }, body: { QueueUrl: queueUrl, ReceiptHandle: 'AQEB-handle', VisibilityTimeout: 120 } });
  });

  it('SESv2 SendEmail (the mailer)', async () => {
    const message = { to: 'ana@example.com', subject: 'Escalación', text: 'Hola', html: '<p>Hola</p>' };
    reply = { MessageId: 'm-1' };
    await new SesMailer(signedJsonRequests({ service: 'ses', region, endpoint, credentials: async () => credentials }), 'AgentDesk <no-reply@example.com>').send(message);
    await new SESv2Client({ region, endpoint, credentials, maxAttempts: 1 }).send(
      new SendEmailCommand({
        FromEmailAddress: 'AgentDesk <no-reply@example.com>',
        Destination: { ToAddresses: [message.to] },
        Content: { Simple: { Subject: { Data: message.subject, Charset: 'UTF-8' }, Body: { Text: { Data: message.text, Charset: 'UTF-8' }, Html: { Data: message.html, Charset: 'UTF-8' } } } },
      }),
    );

    expect(seen).toHaveLength(2);
    expect(seen[0]).toEqual(seen[1]);
    expect(`${seen[0]!.method} ${seen[0]!.path}`).toBe('POST /v2/email/outbound-emails');
    expect(seen[0]!.headers.scope).toBe('eu-west-1/ses/aws4_request');
    expect(publicEndpoint('email', region)).toBe('https://email.eu-west-1.amazonaws.com');
  });

  it('Secrets Manager GetSecretValue (the Stripe configuration)', async () => {
    reply = { Name: 'stripe', SecretString: '{"secretKey":"sk_test_1"}' };
    const reader = new SecretsManagerReader(awsJsonService({ service: 'secretsmanager', targetPrefix: 'secretsmanager', jsonVersion: '1.1', region, endpoint, credentials: async () => credentials }));
    expect(await reader.readSecretString('agentdesk/stripe')).toBe('{"secretKey":"sk_test_1"}');
    await new SecretsManagerClient({ region, endpoint, credentials, maxAttempts: 1 }).send(new GetSecretValueCommand({ SecretId: 'agentdesk/stripe' }));

    expect(seen).toHaveLength(2);
    expect(seen[0]).toEqual(seen[1]);
  });
});
