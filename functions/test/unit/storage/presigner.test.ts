/**
 * The uploads presigner's form policy (S3 POST Object) is signed by hand to keep the S3 client out
 * of the API bundles: it must be exactly what the SDK's own createPresignedPost makes.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { S3Presigner } from '../../../src/adapters/s3-presigner.js';

const NOW = Date.parse('2026-11-25T14:30:05.123Z');
const region = 'eu-west-1';
const bucket = 'agentdesk-uploads';
const key = 'incoming/agents/u1/a1/f1/price list.pdf';

afterEach(() => vi.useRealTimers());

describe('S3Presigner.postPolicy', () => {
  it.each([
    ['long-term keys', { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' }],
    ['a session', { accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token/with+chars=' }],
  ])('signs the same form as @aws-sdk/s3-presigned-post (%s)', async (_name, credentials) => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
    const client = new S3Client({ region, credentials });
    const presigner = new S3Presigner({ bucket, region, expiresInSeconds: 3600, credentials: async () => credentials, now: () => NOW });

    const ours = await presigner.postPolicy(key, { contentType: 'application/pdf', minBytes: 1, maxBytes: 50 * 1024 * 1024, expiresInSeconds: 600 });
    const sdk = await createPresignedPost(client, {
      Bucket: bucket,
      Key: key,
      Conditions: [['content-length-range', 1, 50 * 1024 * 1024]],
      Fields: { 'Content-Type': 'application/pdf' },
      Expires: 600,
    });

    expect(ours).toEqual(sdk);
    const policy = JSON.parse(Buffer.from(ours.fields.Policy!, 'base64').toString('utf8')) as { expiration: string; conditions: unknown[] };
    expect(policy.expiration).toBe('2026-11-25T14:40:05Z');
    expect(policy.conditions).toContainEqual(['content-length-range', 1, 50 * 1024 * 1024]);
    expect(policy.conditions).toContainEqual({ key });
    expect(policy.conditions).toContainEqual({ 'Content-Type': 'application/pdf' });
  });

  it('posts to the bucket path on an emulator endpoint (path-style)', async () => {
    const presigner = new S3Presigner({
      bucket,
      region,
      endpoint: 'http://127.0.0.1:4569/',
      expiresInSeconds: 3600,
      credentials: async () => ({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }),
    });

    const post = await presigner.postPolicy(key, { contentType: 'text/plain', minBytes: 1, maxBytes: 10 });

    expect(post.url).toBe(`http://127.0.0.1:4569/${bucket}`);
    expect(post.fields).toMatchObject({ key, 'Content-Type': 'text/plain', bucket });
  });
});

describe('S3Presigner.copyRequest', () => {
  it('signs x-amz-copy-source as a header (S3 does not read it from the query)', async () => {
    const presigner = new S3Presigner({
      bucket,
      region,
      expiresInSeconds: 3600,
      credentials: async () => ({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }),
    });

    const copy = await presigner.copyRequest(key, 'agents/u1/a1/f1/price list.pdf');

    expect(copy.headers).toEqual({ 'x-amz-copy-source': `/${bucket}/incoming/agents/u1/a1/f1/price%20list.pdf` });
    const url = new URL(copy.url);
    expect(url.pathname).toBe('/agents/u1/a1/f1/price%20list.pdf');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host;x-amz-copy-source');
    expect(url.searchParams.has('x-amz-copy-source')).toBe(false);
  });
});
