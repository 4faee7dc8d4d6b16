/**
 * Issue 33, the re-stamp's media half over plain fetch (adapters/s3-object-tags.ts): the AWS
 * requests it signs (virtual-hosted ListObjectsV2 with start-after, PutObjectTagging on the
 * escaped key with Content-MD5), a truncated listing read as "more", an object deleted since it
 * was listed (404) not an error, anything else one.
 */
import { describe, expect, it } from 'vitest';
import { retentionTaggingBody, S3RetentionTagger } from '../../../src/adapters/s3-object-tags.js';

function fakeS3(answers: { status: number; body: string }[]) {
  const calls: { method: string; url: string; headers: Record<string, string>; body?: string }[] = [];
  const fetchFn = (async (url: URL, init: RequestInit) => {
    calls.push({ method: String(init.method), url: url.toString(), headers: init.headers as Record<string, string>, ...(init.body ? { body: String(init.body) } : {}) });
    const next = answers.shift() ?? { status: 200, body: '' };
    return new Response(next.body, { status: next.status });
  }) as unknown as typeof fetch;
  const tagger = new S3RetentionTagger({ bucket: 'uploads', region: 'eu-south-2', credentials: async () => ({ accessKeyId: 'AKID', secretAccessKey: 'secret' }), fetch: fetchFn });
  return { tagger, calls };
}

describe('S3RetentionTagger', () => {
  it('lists a page after the cursor and says whether more follow', async () => {
    const listing = '<ListBucketResult><IsTruncated>true</IsTruncated><Contents><Key>whatsapp-media/a/c/1</Key></Contents><Contents><Key>whatsapp-media/a/c/2</Key></Contents></ListBucketResult>';
    const { tagger, calls } = fakeS3([{ status: 200, body: listing }]);
    expect(await tagger.list('whatsapp-media/a/', 'whatsapp-media/a/c/0')).toEqual({ keys: ['whatsapp-media/a/c/1', 'whatsapp-media/a/c/2'], more: true });
    expect(calls[0]!.method).toBe('GET');
    expect(calls[0]!.url).toBe('https://uploads.s3.eu-south-2.amazonaws.com/?list-type=2&max-keys=200&prefix=whatsapp-media%2Fa%2F&start-after=whatsapp-media%2Fa%2Fc%2F0');
    expect(calls[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/eu-south-2\/s3\/aws4_request/);
    await expect(tagger.list('', undefined)).rejects.toThrow(/Refusing/);
  });

  it('tags one object (its key escaped, Content-MD5 sent); a 404 is an object gone, a 403 an error', async () => {
    const { tagger, calls } = fakeS3([{ status: 200, body: '' }, { status: 404, body: '<Error><Code>NoSuchKey</Code></Error>' }, { status: 403, body: '<Error><Code>AccessDenied</Code></Error>' }]);
    await tagger.tag('whatsapp-media/a/c/foto señal.jpg', '30d');
    expect(calls[0]!.method).toBe('PUT');
    expect(calls[0]!.url).toBe('https://uploads.s3.eu-south-2.amazonaws.com/whatsapp-media/a/c/foto%20se%C3%B1al.jpg?tagging=');
    expect(calls[0]!.body).toBe(retentionTaggingBody('30d'));
    expect(calls[0]!.body).toContain('<Tag><Key>retention</Key><Value>30d</Value></Tag>');
    expect(calls[0]!.headers['content-md5']).toMatch(/^[A-Za-z0-9+/]+=*$/);
    await tagger.tag('whatsapp-media/a/c/gone', '30d');
    await expect(tagger.tag('whatsapp-media/a/c/3', '30d')).rejects.toThrow('S3 PutObjectTagging answered HTTP 403: AccessDenied');
    await expect(tagger.tag('whatsapp-media/a/c/3', '<x>')).rejects.toThrow(/Not a retention tag/);
  });
});
