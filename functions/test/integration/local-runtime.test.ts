/**
 * The local runtime itself: the gateway answers like API Gateway (404s, the JWT authorizer's
 * 401s, the 10 MB cap), tokens cognito-local really issues are accepted, and the local SQS
 * endpoint + dispatcher deliver what @aws-sdk/client-sqs sends to the manifest's workers.
 */
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { SignJWT, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import {
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { deadLetters, drainQueues, redriveDeadLetters, testCognitoClient, testSqsClient } from '../support/stack-clients.js';
import { workers } from '../../src/routes.js';

const require = createRequire(import.meta.url);
/** cognito-local signs every token with this key (kid "CognitoLocal"). */
const cognitoLocalKey = (require('cognito-local/lib/keys/cognitoLocal.private.json') as { jwk: JWK }).jwk;

const apiUrl = inject('apiUrl');
const now = () => Math.floor(Date.now() / 1000);

async function mintAccessToken(
  key: JWK,
  claims: { exp?: number; iss?: string; client_id?: string; aud?: string; kid?: string } = {},
): Promise<string> {
  const signingKey = await importJWK(key, 'RS256');
  const jwt = new SignJWT({
    sub: randomUUID(),
    client_id: claims.client_id ?? inject('userPoolClientId'),
    token_use: 'access',
    scope: 'aws.cognito.signin.user.admin',
    username: 'someone@example.com',
    ...(claims.aud ? { aud: claims.aud } : {}),
  })
    .setProtectedHeader({ alg: 'RS256', kid: claims.kid ?? 'CognitoLocal' })
    .setIssuer(claims.iss ?? inject('cognitoIssuer'))
    .setIssuedAt(now() - 60)
    .setExpirationTime(claims.exp ?? now() + 3600);
  return jwt.sign(signingKey);
}

async function getMe(authorization?: string) {
  const response = await fetch(`${apiUrl}/api/me`, { headers: authorization ? { authorization } : {} });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe('local gateway routing', () => {
  it('answers an unknown API route with 404 {"message":"Not Found"} like API Gateway', async () => {
    const unknown = await fetch(`${apiUrl}/api/no-such-route`);
    const wrongMethod = await fetch(`${apiUrl}/api/me`, { method: 'DELETE' });

    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Not Found' });
    expect(wrongMethod.status).toBe(404);
    expect(await wrongMethod.json()).toEqual({ message: 'Not Found' });
  });

  it('rejects a request body over 10 MB with 413', async () => {
    const response = await fetch(`${apiUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(10 * 1024 * 1024 + 1),
    });

    expect(response.status).toBe(413);
  });

  it('serves /config.json from the environment', async () => {
    const response = await fetch(`${apiUrl}/config.json`);

    expect(await response.json()).toEqual({ googleClientId: inject('googleClientId') });
  });
});

describe('local JWT authorizer on a user route', () => {
  const unauthorized = { status: 401, body: { message: 'Unauthorized' } };

  it('rejects a request without a token', async () => {
    expect(await getMe()).toEqual(unauthorized);
  });

  it('rejects a garbage token', async () => {
    expect(await getMe('Bearer not-a-jwt')).toEqual(unauthorized);
  });

  it('rejects a token signed by another key, even with the right kid and claims', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const token = await mintAccessToken(await exportJWK(privateKey));

    expect(await getMe(`Bearer ${token}`)).toEqual(unauthorized);
  });

  it('rejects an expired token signed with cognito-local’s own key', async () => {
    const token = await mintAccessToken(cognitoLocalKey, { exp: now() - 10 });

    expect(await getMe(`Bearer ${token}`)).toEqual(unauthorized);
  });

  it('rejects a token for another app client or from another issuer', async () => {
    const otherClient = await mintAccessToken(cognitoLocalKey, { client_id: 'another-client' });
    const otherAudience = await mintAccessToken(cognitoLocalKey, { aud: 'another-client' });
    const otherIssuer = await mintAccessToken(cognitoLocalKey, { iss: `${inject('cognitoEndpoint')}/local_other` });

    expect(await getMe(`Bearer ${otherClient}`)).toEqual(unauthorized);
    expect(await getMe(`Bearer ${otherAudience}`)).toEqual(unauthorized);
    expect(await getMe(`Bearer ${otherIssuer}`)).toEqual(unauthorized);
  });

  it('lets through the access and ID tokens cognito-local issues to an e-mail user of the app client', async () => {
    const cognito = testCognitoClient();
    const email = `runtime-${randomUUID()}@example.com`;
    const password = 'correct horse battery';
    await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: inject('userPoolId'),
        Username: email,
        UserAttributes: [{ Name: 'email', Value: email }],
        MessageAction: 'SUPPRESS',
      }),
    );
    await cognito.send(
      new AdminSetUserPasswordCommand({ UserPoolId: inject('userPoolId'), Username: email, Password: password, Permanent: true }),
    );
    const auth = await cognito.send(
      new InitiateAuthCommand({
        ClientId: inject('userPoolClientId'),
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: email, PASSWORD: password },
      }),
    );

    const withAccess = await getMe(`Bearer ${auth.AuthenticationResult?.AccessToken}`);
    const withId = await getMe(`Bearer ${auth.AuthenticationResult?.IdToken}`);

    // Past the authorizer the route group's handler answers, in its {success, ...} envelope.
    expect(withAccess).not.toEqual(unauthorized);
    expect(withAccess.body).toHaveProperty('success');
    expect(withId).not.toEqual(unauthorized);
    expect(withId.body).toHaveProperty('success');
  });
});

describe('local SQS endpoint and dispatcher', () => {
  const queueUrl = () => inject('queueUrls')['url-scrape'] as string;

  it('accepts SendMessage and SendMessageBatch from the AWS SDK and delivers them to the worker', async () => {
    const sqs = testSqsClient();
    const before = (await drainQueues())['url-scrape'];
    // Well-formed jobs for sources that do not exist: the worker drops them (a success).
    const job = (userId: string) => JSON.stringify({ userId, agentId: 'no-such-agent', urlId: 'no-such-url' });

    const sent = await sqs.send(
      new SendMessageCommand({ QueueUrl: queueUrl(), MessageBody: job('user-1') }),
    );
    const batch = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl(),
        Entries: [
          { Id: 'a', MessageBody: job('user-2') },
          { Id: 'b', MessageBody: job('user-3') },
        ],
      }),
    );
    const after = (await drainQueues())['url-scrape'];

    expect(sent.MessageId).toBeTruthy();
    expect(batch.Successful?.map((s) => s.Id).sort()).toEqual(['a', 'b']);
    expect(after!.succeeded - before!.succeeded).toBeGreaterThanOrEqual(3);
    const dead = await deadLetters('url-scrape');
    expect(dead.map((d) => d.messageId)).not.toContain(sent.MessageId);
  });

  it('moves a message the worker keeps failing to the dead-letter list after maxReceiveCount deliveries', async () => {
    const sqs = testSqsClient();

    // The worker rejects messages without a userId (its schema), every time.
    const sent = await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl(), MessageBody: JSON.stringify({ nope: true }) }));
    await drainQueues();

    const dead = (await deadLetters('url-scrape')).find((d) => d.messageId === sent.MessageId);
    expect(dead).toMatchObject({ queue: 'url-scrape', receiveCount: workers['url-scrape'].maxReceiveCount, body: JSON.stringify({ nope: true }) });
    // Its own error, as the worker reported it for this record (not the batch's).
    expect(dead).toMatchObject({ lastError: 'Error: Malformed url-scrape message', error: { kind: 'unexpected', message: 'Malformed url-scrape message' } });
  });

  it('redrives dead letters (POST /_local/dead-letters/redrive?queue=&messageId=): back on their queue with all their tries; an unknown queue is a 400', async () => {
    const sqs = testSqsClient();
    const sent = await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl(), MessageBody: JSON.stringify({ nope: 'redrive' }) }));
    await drainQueues();
    expect((await deadLetters('url-scrape')).some((d) => d.messageId === sent.MessageId)).toBe(true);

    expect(await redriveDeadLetters('no-such-queue')).toMatchObject({ status: 400, body: { message: expect.stringContaining('Unknown queue: no-such-queue') } });
    // Only this message: other files' dead letters stay where they are.
    expect(await redriveDeadLetters('url-scrape', [sent.MessageId!])).toEqual({ status: 200, body: { redriven: 1 } });
    // Still malformed: every try again (the receive count starts over), then the dead-letter list again.
    await drainQueues();
    const again = (await deadLetters('url-scrape')).filter((d) => d.messageId === sent.MessageId);
    expect(again).toEqual([expect.objectContaining({ receiveCount: workers['url-scrape'].maxReceiveCount })]);
  });

  it('answers ChangeMessageVisibility from the AWS SDK, refusing a receipt handle that is not in flight as SQS does', async () => {
    const sqs = testSqsClient();
    await expect(sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl(), ReceiptHandle: 'bm8tc3VjaC1oYW5kbGU=', VisibilityTimeout: 30 }))).rejects.toMatchObject({
      name: 'ReceiptHandleIsInvalid',
    });
  });

  it('enforces SQS size limits like SQS: 256 KiB per message, and per SendMessageBatch 10 entries and 256 KiB in all', async () => {
    const sqs = testSqsClient();
    const body = (bytes: number) => JSON.stringify({ userId: 'u', agentId: 'a', urlId: 'x'.repeat(bytes - 40) }).padEnd(bytes, ' ');
    const entries = (n: number, bytes: number) => Array.from({ length: n }, (_, i) => ({ Id: `e${i}`, MessageBody: body(bytes) }));

    await expect(sqs.send(new SendMessageCommand({ QueueUrl: queueUrl(), MessageBody: body(256 * 1024 + 1) }))).rejects.toMatchObject({ name: 'InvalidParameterValue' });
    await expect(sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl(), Entries: entries(11, 100) }))).rejects.toMatchObject({ name: 'TooManyEntriesInBatchRequest' });
    await expect(sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl(), Entries: entries(2, 140 * 1024) }))).rejects.toMatchObject({ name: 'BatchRequestTooLong' });
    const fits = await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl(), Entries: entries(2, 128 * 1024) }));

    expect(fits.Successful).toHaveLength(2);
  });

  it('answers an unknown queue with QueueDoesNotExist', async () => {
    const sqs = testSqsClient();
    const url = `${inject('sqsEndpoint')}/000000000000/no-such-queue`;

    await expect(sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'x' }))).rejects.toMatchObject({
      name: 'QueueDoesNotExist',
    });
  });
});

describe('local services', () => {
  it('are supervised (restarted when they die): GET /_local/services shows each running with its process', async () => {
    const services = (await (await fetch(new URL('/_local/services', inject('apiUrl')))).json()) as { name: string; state: string; restarts: number; pid?: number }[];
    expect(services.map((s) => s.name).sort()).toEqual(['DynamoDB Local', 'SES mailbox', 'cognito-local', 's3rver']);
    for (const service of services) expect(service).toMatchObject({ state: 'running', restarts: 0 });
    expect(services.find((s) => s.name === 'DynamoDB Local')?.pid).toBeGreaterThan(0);
  });
});
