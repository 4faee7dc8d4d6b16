import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpRequest } from '@smithy/core/protocols';
// The SDK's own signer (what the SDK's API Gateway management and Lambda clients sign with), as the reference.
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sha256 } from '../../support/sha256.js';
import { ApiGatewayRelayConnections } from '../../../src/adapters/aws/relay-connections.js';
import { signAwsRequest } from '../../../src/adapters/aws/sigv4.js';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token' };

describe('AWS requests signed without an SDK client', () => {
  const date = new Date('2026-11-25T20:00:00.000Z');
  const sdkSignature = async (service: string, method: string, url: URL, headers: Record<string, string>, body: string) =>
    (
      await new SignatureV4({ credentials, region: 'eu-west-1', service, sha256: Sha256 }).sign(
        new HttpRequest({ method, protocol: 'https:', hostname: url.hostname, path: url.pathname, headers: { host: url.host, ...headers }, ...(body ? { body } : {}) }),
        { signingDate: date },
      )
    ).headers.authorization;

  it.each([
    ['POST', 'L0SM9cOFvHcCIhw=', '{"type":"text","token":"Hola, ¿qué tal?","last":false}'],
    ['DELETE', 'a+b/c=', ''],
  ])('connection posting, %s: the same Signature V4 as the SDK’s signer', async (method, connectionId, body) => {
    const url = new URL(`https://abc123.execute-api.eu-west-1.amazonaws.com/prod/@connections/${encodeURIComponent(connectionId)}`);
    const headers: Record<string, string> = body ? { 'content-type': 'application/json' } : {};

    const ours = signAwsRequest({ service: 'execute-api', method, url, body, headers, region: 'eu-west-1', credentials, date });

    expect(ours.authorization).toBe(await sdkSignature('execute-api', method, url, headers, body));
    expect(ours['x-amz-security-token']).toBe('session-token');
  });

  it('the relay warm-up’s asynchronous Lambda Invoke: the same Signature V4 as the SDK’s signer', async () => {
    const url = new URL('https://lambda.eu-west-1.amazonaws.com/2015-03-31/functions/agentdesk-voice-relay/invocations');
    const headers = { 'content-type': 'application/json', 'x-amz-invocation-type': 'Event' };
    const body = '{"warmUp":true}';

    const ours = signAwsRequest({ service: 'lambda', method: 'POST', url, body, headers, region: 'eu-west-1', credentials, date });

    expect(ours.authorization).toBe(await sdkSignature('lambda', 'POST', url, headers, body));
    expect(ours['x-amz-invocation-type']).toBe('Event');
  });
});

describe('ApiGatewayRelayConnections', () => {
  const seen: Array<{ method: string; url: string; body: string; auth: string }> = [];
  let status = 200;
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, body, auth: String(req.headers.authorization) });
      res.writeHead(status).end(status === 410 ? '{"message":"Gone"}' : '');
    });
  });
  let endpoint = '';
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/_ws/voice-relay`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const posts = () => new ApiGatewayRelayConnections({ endpoint, region: 'us-east-1', credentials: async () => credentials });

  it('posts the frame as JSON to @connections/{id}, signed', async () => {
    status = 200;
    expect(await posts().post('L0SM9cOFvHcCIhw=', { type: 'text', token: 'Hola.', last: true, interruptible: true, preemptible: true })).toBe(true);
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      url: '/_ws/voice-relay/@connections/L0SM9cOFvHcCIhw%3D',
      body: '{"type":"text","token":"Hola.","last":true,"interruptible":true,"preemptible":true}',
    });
    expect(seen.at(-1)!.auth).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/execute-api\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/);
  });

  it('a gone caller (410) is false, not an error; other failures throw; close tolerates gone', async () => {
    status = 410;
    expect(await posts().post('c1', { type: 'end' })).toBe(false);
    await expect(posts().close('c1')).resolves.toBeUndefined();
    status = 500;
    await expect(posts().post('c1', { type: 'end' })).rejects.toThrow('PostToConnection answered 500');
  });
});
