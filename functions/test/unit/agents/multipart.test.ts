import { describe, expect, it } from 'vitest';
import { multipartMessages, readMultipartFile, readMultipartFiles } from '../../../src/http/multipart.js';

async function encode(form: FormData): Promise<{ headers: Record<string, string>; body: Buffer }> {
  const request = new Request('http://local/', { method: 'POST', body: form });
  return { headers: { 'content-type': request.headers.get('content-type') ?? '' }, body: Buffer.from(await request.arrayBuffer()) };
}

describe('readMultipartFiles', () => {
  it('reads every file of the field with its UTF-8 name and type, and ignores other fields', async () => {
    const form = new FormData();
    form.append('files', new Blob(['hello'], { type: 'text/plain' }), 'Menú.txt');
    form.append('other', new Blob(['x']), 'ignored.txt');
    form.append('files', new Blob([new Uint8Array([1, 2, 3])], { type: 'application/pdf' }), 'a.pdf');
    const { headers, body } = await encode(form);

    const { files, tooMany } = await readMultipartFiles(headers, body, 'files', { maxBytes: 100, maxFiles: 5 });

    expect(tooMany).toBe(false);
    expect(files.map((f) => [f.filename, f.mimeType, f.bytes.toString('hex'), f.truncated])).toEqual([
      ['Menú.txt', 'text/plain', Buffer.from('hello').toString('hex'), false],
      ['a.pdf', 'application/pdf', '010203', false],
    ]);
  });

  it('marks a file over the byte limit as truncated', async () => {
    const form = new FormData();
    form.append('files', new Blob(['x'.repeat(50)], { type: 'text/plain' }), 'big.txt');
    const { headers, body } = await encode(form);

    const { files } = await readMultipartFiles(headers, body, 'files', { maxBytes: 10, maxFiles: 5 });

    expect(files[0]).toMatchObject({ truncated: true });
    expect(files[0]?.bytes.length).toBe(10);
  });

  it('reports more files than allowed', async () => {
    const form = new FormData();
    for (let i = 0; i < 3; i++) form.append('files', new Blob(['x']), `${i}.txt`);
    const { headers, body } = await encode(form);

    const { files, tooMany } = await readMultipartFiles(headers, body, 'files', { maxBytes: 10, maxFiles: 2 });

    expect(tooMany).toBe(true);
    expect(files).toHaveLength(2);
  });

  it('refuses a body that is not multipart', async () => {
    await expect(readMultipartFiles({ 'content-type': 'application/json' }, Buffer.from('{}'), 'files', { maxBytes: 1, maxFiles: 1 })).rejects.toThrow(
      'Request must be multipart/form-data',
    );
  });
});

describe('malformed multipart bodies (issue 28)', () => {
  const headers = { 'content-type': 'multipart/form-data; boundary=zz' };
  const part = (name: string, content = 'xx') => `--zz\r\nContent-Disposition: form-data; name="${name}"; filename="a.png"\r\n\r\n${content}\r\n`;

  // Each used to leave busboy's "Unexpected end of form" on a file stream nobody listened to: an
  // uncaught exception (vitest fails the run on one).
  it.each([
    ['a part of another name, then end of input', part('x')],
    ['the right part, then end of input', part('files')],
    ['the right part after a skipped one, then end of input', `${part('x')}${part('files')}`],
    ['truncated inside the part headers', part('files').slice(0, 30)],
    ['huge part header', `--zz\r\nContent-Disposition: form-data; name="files"; filename="${'a'.repeat(100_000)}"\r\n\r\nxx\r\n--zz--\r\n`],
    ['an empty body', ''],
  ])('%s: both readers reject with the malformed message', async (_name, text) => {
    const body = Buffer.from(text);
    await expect(readMultipartFile(headers, body, 'avatar', 100)).rejects.toThrow(multipartMessages.malformed);
    await expect(readMultipartFiles(headers, body, 'files', { maxBytes: 100, maxFiles: 5 })).rejects.toThrow(multipartMessages.malformed);
  });

  it('a body under another boundary is malformed; no boundary at all is not multipart', async () => {
    const body = Buffer.from(`${part('files')}--zz--\r\n`);
    await expect(readMultipartFiles({ 'content-type': 'multipart/form-data; boundary=yy' }, body, 'files', { maxBytes: 100, maxFiles: 5 })).rejects.toThrow(multipartMessages.malformed);
    await expect(readMultipartFiles({ 'content-type': 'multipart/form-data' }, body, 'files', { maxBytes: 100, maxFiles: 5 })).rejects.toThrow(multipartMessages.notMultipart);
  });

  it("1,000 parts: reads the field's files up to the limit and says there were too many", async () => {
    const body = Buffer.from(`${Array.from({ length: 1_000 }, (_, i) => part(i % 2 ? 'files' : `f${i}`, 'x')).join('')}--zz--\r\n`);
    const { files, tooMany } = await readMultipartFiles(headers, body, 'files', { maxBytes: 100, maxFiles: 10 });
    expect(tooMany).toBe(true);
    expect(files.length).toBeLessThanOrEqual(10);
  });
});
