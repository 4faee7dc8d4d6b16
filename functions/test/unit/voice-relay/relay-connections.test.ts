import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpRequest } from '@smithy/core/protocols';
// The SDK's own signer (what @aws-sdk/client-apigatewaymanagementapi signs with), as the reference.
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiGatewayRelayConnections, signExecuteApi } from '../../../src/adapters/aws/relay-connections.js';

type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: SourceData) =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);

/** @smithy/hash-node's Hash, over node:crypto. */
class Sha256 {
  private readonly h: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.h = secret ? createHmac('sha256', bytes(secret)) : createHash('sha256');
  }
  update(data: SourceData) {
    this.h.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.h.digest());
  }
}

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token' };

describe('connection-posting requests signed without the SDK client', () => {
  it.each([
    ['POST', 'L0SM9cOFvHcCIhw=', '{"type":"text","token":"Hola, ¿qué tal?","last":false}'],
    ['DELETE', 'a+b/c=', ''],
  ])('%s: the same Signature V4 as the SDK’s signer', async (method, connectionId, body) => {
    const url = new URL(`https://abc123.execute-api.eu-west-1.amazonaws.com/prod/@connections/${encodeURIComponent(connectionId)}`);
    const date = new Date('2026-11-25T20:00:00.000Z');

    const ours = signExecuteApi({ method, url, body, ...(body ? { contentType: 'application/json' } : {}), region: 'eu-west-1', credentials, date });
    const sdk = await new SignatureV4({ credentials, region: 'eu-west-1', service: 'execute-api', sha256: Sha256 }).sign(
      new HttpRequest({
        method,
        protocol: 'https:',
        hostname: url.hostname,
        path: url.pathname,
        headers: { host: url.host, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body } : {}),
      }),
      { signingDate: date },
    );

    expect(ours.authorization).toBe(sdk.headers.authorization);
    expect(ours['x-amz-security-token']).toBe('session-token');
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
    expect(await posts().post('L0SM9cOFvHcCIhw=', { type: 'text', token: 'Hola.', last: true })).toBe(true);
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/_ws/voice-relay/@connections/L0SM9cOFvHcCIhw%3D', body: '{"type":"text","token":"Hola.","last":true}' });
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
