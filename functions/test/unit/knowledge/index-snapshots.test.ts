import { HttpRequest } from '@smithy/core/protocols';
// The SDK's own signer (what @aws-sdk/client-s3 signs with: path not escaped twice), as the reference.
import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it } from 'vitest';
import { Sha256 } from '../../support/sha256.js';
import { deletingSnapshots, S3IndexSnapshots, snapshotKey } from '../../../src/adapters/aws/index-snapshots.js';
import { signAwsRequest } from '../../../src/adapters/aws/sigv4.js';
import { MemoryChunkStore } from './fakes.js';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token' };
const ref = { userId: '3f0c2a4e-1b2c-4d5e-8f90-123456789abc', agentId: '01JDZ8Q5K3M4N5P6Q7R8S9T0VW', knowledgeVersion: 4, language: 'es' as const };

describe('index snapshots in S3', () => {
  it('keys are tenant first, one per agent and language', () => {
    expect(snapshotKey(ref.userId, ref.agentId, 'es')).toBe(`knowledge-index/${ref.userId}/${ref.agentId}/es.bin`);
    // Whatever an id holds, it stays one path segment.
    expect(snapshotKey('a/b', 'c d', 'en')).toBe('knowledge-index/a%2Fb/c%20d/en.bin');
  });

  it('a PUT of binary bytes to an escaped key: the same Signature V4 as the SDK’s S3 signer', async () => {
    const date = new Date('2026-11-26T04:00:00.000Z');
    const url = new URL(`https://agentdesk-uploads.s3.eu-west-1.amazonaws.com/${snapshotKey('a b', 'ñ', 'es')}`);
    const body = new Uint8Array([0x41, 0x44, 0x4b, 0x49, 0, 1, 2, 255]);
    const headers = { 'content-type': 'application/octet-stream' };

    const ours = signAwsRequest({ service: 's3', method: 'PUT', url, body, headers, region: 'eu-west-1', credentials, date });
    const sdk = await new SignatureV4({ credentials, region: 'eu-west-1', service: 's3', sha256: Sha256, uriEscapePath: false, applyChecksum: true }).sign(
      new HttpRequest({ method: 'PUT', protocol: 'https:', hostname: url.hostname, path: url.pathname, headers: { host: url.host, ...headers }, body }),
      { signingDate: date },
    );

    expect(ours.authorization).toBe(sdk.headers.authorization);
  });

  it('GET: a missing object (404, or 403 without ListBucket) is null, another failure throws; PUT failures throw', async () => {
    const seen: { method: string; url: string }[] = [];
    let status = 404;
    const store = new S3IndexSnapshots({
      bucket: 'uploads',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:4569',
      credentials: async () => credentials,
      fetch: (async (url: URL, init: RequestInit) => {
        seen.push({ method: String(init.method), url: String(url) });
        return new Response(status === 200 ? new Uint8Array([9, 8, 7]) : 'x', { status });
      }) as unknown as typeof fetch,
    });

    expect(await store.get(ref)).toBeNull();
    status = 403;
    expect(await store.get(ref)).toBeNull();
    status = 200;
    expect(await store.get(ref)).toEqual(new Uint8Array([9, 8, 7]));
    status = 500;
    await expect(store.get(ref)).rejects.toThrow('HTTP 500');
    await expect(store.put(ref, new Uint8Array([1]))).rejects.toThrow('HTTP 500');
    expect(seen.at(-1)).toEqual({ method: 'PUT', url: `http://127.0.0.1:4569/uploads/knowledge-index/${ref.userId}/${ref.agentId}/es.bin` });
  });

  it('deleting a source or the agent deletes both languages’ snapshots of that agent, after the chunks', async () => {
    const deleted: string[] = [];
    const chunks = deletingSnapshots(new MemoryChunkStore(), async (key) => void deleted.push(key));

    await chunks.deleteSource('u1', 'a1', 'file', 'f1');
    await chunks.deleteAgent('u1', 'a2');

    expect(deleted.sort()).toEqual(['knowledge-index/u1/a1/en.bin', 'knowledge-index/u1/a1/es.bin', 'knowledge-index/u1/a2/en.bin', 'knowledge-index/u1/a2/es.bin']);
  });
});
