import { describe, expect, it } from 'vitest';
import { readMultipartFiles } from '../../../src/http/multipart.js';

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
