/**
 * HttpGraphMediaClient (issue 31) against the fake Graph API's media endpoints on loopback:
 * describe (file_size as a string or a number), the expiring authenticated download streamed,
 * Meta's 404 for an unknown media id, the multipart upload with Meta's type and size checks.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../local/fake-whatsapp/server.js';
import { HttpGraphMediaClient, parseFileSize } from '../../../src/adapters/whatsapp/graph-media.js';
import { GraphMediaError } from '../../../src/domain/whatsapp/media/ports.js';

let fake: FakeWhatsApp;
let client: HttpGraphMediaClient;
const phoneId = '106540352242922';
const credentials = { bearerToken: 'EAAG-good-token', businessId: '102290129340398', phoneId };
const voice = Buffer.from('OggS fake voice note: Quería pedir cita con la Dra. Pérez'.repeat(3000));

async function register(body: Record<string, unknown>): Promise<{ mediaId: string; downloads: number; describes: number; expiredDownloads: number }> {
  const res = await fetch(`${fake.url}/_test/media`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return (await res.json()) as never;
}
const stats = async (mediaId: string) => (await (await fetch(`${fake.url}/_test/media/${mediaId}`)).json()) as { downloads: number; describes: number; expiredDownloads: number };

async function failure(run: () => Promise<unknown>): Promise<GraphMediaError> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GraphMediaError)) throw new Error(`expected a GraphMediaError, got ${String(error)}`);
  return error;
}

beforeAll(async () => {
  fake = await startFakeWhatsApp();
  client = new HttpGraphMediaClient({ baseUrl: fake.graphUrl, timeoutMs: 2000 });
});
afterAll(() => fake.close());
beforeEach(async () => {
  await fetch(`${fake.url}/_test/media/reset`, { method: 'POST' });
});

describe('HttpGraphMediaClient', () => {
  it('describes a media id and downloads it as a stream with the business token', async () => {
    const { mediaId } = await register({ bytes: voice.toString('base64'), mimeType: 'audio/ogg; codecs=opus' });
    const info = await client.describe(credentials, mediaId);
    expect(info).toMatchObject({ mimeType: 'audio/ogg; codecs=opus', fileSize: voice.length, sha256: createHash('sha256').update(voice).digest('hex') });
    const download = await client.download(credentials, info.url);
    expect(download.contentLength).toBe(voice.length);
    expect(download.body).toBeInstanceOf(ReadableStream);
    expect(Buffer.from(await new Response(download.body).arrayBuffer()).equals(voice)).toBe(true);
    expect(await stats(mediaId)).toMatchObject({ describes: 1, downloads: 1 });
  });

  it('accepts file_size as a number too, and refuses a lookup without one', async () => {
    const { mediaId } = await register({ bytes: voice.toString('base64'), mimeType: 'image/jpeg', fileSizeAs: 'number' });
    expect((await client.describe(credentials, mediaId)).fileSize).toBe(voice.length);
    expect(parseFileSize('303833')).toBe(303833);
    expect(parseFileSize(' 12 ')).toBe(12);
    expect(parseFileSize('12kb')).toBeNaN();
    expect(parseFileSize(-1)).toBeNaN();
    expect(parseFileSize(undefined)).toBeNaN();
  });

  it('reads an expired URL as expired, and a URL with another token as expired too (Meta answers 401)', async () => {
    const { mediaId } = await register({ bytes: voice.toString('base64'), mimeType: 'audio/ogg', expiredUrls: 1 });
    const first = await client.describe(credentials, mediaId);
    expect((await failure(() => client.download(credentials, first.url))).kind).toBe('expired');
    const second = await client.describe(credentials, mediaId);
    expect((await failure(() => client.download({ ...credentials, bearerToken: 'EAAG-other' }, second.url))).kind).toBe('expired');
    const ok = await client.download(credentials, second.url);
    await ok.body.cancel();
    expect(await stats(mediaId)).toMatchObject({ describes: 2, expiredDownloads: 1 });
  });

  it('an unknown or deleted media id is not_found; a bad token is auth; Meta down is unavailable', async () => {
    const { mediaId } = await register({ bytes: voice.toString('base64'), mimeType: 'audio/ogg', notFound: true });
    expect((await failure(() => client.describe(credentials, mediaId))).kind).toBe('not_found');
    expect((await failure(() => client.describe(credentials, '999999999999'))).kind).toBe('not_found');
    const { mediaId: ok } = await register({ bytes: voice.toString('base64'), mimeType: 'audio/ogg' });
    expect((await failure(() => client.describe({ ...credentials, bearerToken: 'bad-token' }, ok))).kind).toBe('auth');
    await fetch(`${fake.url}/_test/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'status', status: 503, match: { path: `/${ok}` }, times: 1 }) });
    expect((await failure(() => client.describe(credentials, ok))).kind).toBe('unavailable');
    await fetch(`${fake.url}/_test/faults`, { method: 'DELETE' });
  });

  it('uploads a file as multipart and Meta answers its media id; the fake keeps it', async () => {
    const pdf = Buffer.from('%PDF-1.4 Tarifas 2026 · Clínica Sonrisa');
    const { mediaId } = await client.upload(credentials, { bytes: new Uint8Array(pdf), mimeType: 'application/pdf', fileName: 'tarifas-clínica.pdf' });
    expect(mediaId).toMatch(/^\d+$/);
    const list = (await (await fetch(`${fake.url}/_test/media/uploads?phoneId=${phoneId}`)).json()) as { uploads: { id: string; fileName: string; size: number; mimeType: string }[] };
    expect(list.uploads).toEqual([expect.objectContaining({ id: mediaId, fileName: 'tarifas-clínica.pdf', size: pdf.length, mimeType: 'application/pdf' })]);
    const bytes = Buffer.from(await (await fetch(`${fake.url}/_test/media/uploads/${mediaId}`)).arrayBuffer());
    expect(bytes.equals(pdf)).toBe(true);
  });

  it("refuses an upload Meta refuses: a type it does not take, an image over 5 MB", async () => {
    const zip = await failure(() => client.upload(credentials, { bytes: new Uint8Array(10), mimeType: 'application/zip', fileName: 'a.zip' }));
    expect(zip).toMatchObject({ kind: 'bad_request', code: 100 });
    const big = await failure(() => client.upload(credentials, { bytes: new Uint8Array(5 * 1024 * 1024 + 1), mimeType: 'image/jpeg', fileName: 'foto.jpg' }));
    expect(big).toMatchObject({ kind: 'bad_request', code: 131053 });
  });
});
