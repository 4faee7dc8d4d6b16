/** The local S3 gate checks a form upload's policy as S3 does (s3rver alone ignores it). */
import { describe, expect, it } from 'vitest';
import { S3Presigner } from '../../../src/adapters/s3-presigner.js';
import { checkPostPolicy } from '../../../local/s3-post-policy.js';

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const NOW = Date.parse('2026-11-25T14:00:00Z');

async function form(overrides: Record<string, string> = {}) {
  const presigner = new S3Presigner({ bucket: 'uploads', region: 'us-east-1', endpoint: 'http://127.0.0.1:1', expiresInSeconds: 600, credentials: async () => credentials, now: () => NOW });
  const { fields } = await presigner.postPolicy('incoming/a/b.pdf', { contentType: 'application/pdf', minBytes: 1, maxBytes: 1000 });
  return new Map(Object.entries({ ...fields, ...overrides }).map(([k, v]) => [k.toLowerCase(), v]));
}

describe('checkPostPolicy', () => {
  it('accepts the signed form and hands back its size range', async () => {
    expect(checkPostPolicy('uploads', await form(), credentials, new Date(NOW + 1000))).toEqual({ minBytes: 1, maxBytes: 1000 });
  });

  it('refuses an expired policy, another bucket, an extra field and another signing key', async () => {
    const at = new Date(NOW + 1000);
    expect(() => checkPostPolicy('uploads', { get: () => undefined } as never, credentials)).toThrow(/Policy/);
    const fields = await form();
    expect(() => checkPostPolicy('uploads', fields, credentials, new Date(NOW + 601_000))).toThrow('Invalid according to Policy: Policy expired.');
    expect(() => checkPostPolicy('other-bucket', fields, credentials, at)).toThrow(/Policy Condition failed: \["eq","\$bucket","uploads"\]/);
    const extra = await form({ 'x-amz-meta-owner': 'me' });
    const ignored = await form({ 'x-ignore-note': 'fine' });
    expect(() => checkPostPolicy('uploads', extra, credentials, at)).toThrow('Invalid according to Policy: Extra input fields: x-amz-meta-owner');
    expect(() => checkPostPolicy('uploads', ignored, credentials, at)).not.toThrow();
    expect(() => checkPostPolicy('uploads', fields, { ...credentials, secretAccessKey: 'other' }, at)).toThrow(/signature we calculated does not match/);
  });
});
