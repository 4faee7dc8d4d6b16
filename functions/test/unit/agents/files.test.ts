import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from '../../../src/adapters/s3-agent-files.js';
import { canonicalMimeType, fileObjectKey, rejectedFiles, sanitiseFileName } from '../../../src/domain/agents/files.js';

describe('agent document names and keys', () => {
  it.each([
    ['Handbook 2024.pdf', 'Handbook_2024.pdf'],
    ['Menú de año.docx', 'Menu_de_ano.docx'],
    ['../../etc/passwd.txt', 'passwd.txt'],
    ['C:\\Users\\me\\notes.txt', 'notes.txt'],
    ['.hidden.txt', 'file.hidden.txt'],
    ['日本語.pdf', 'file.pdf'],
    ['???', 'file'],
  ])('%j → %j', (name, safe) => {
    expect(sanitiseFileName(name)).toBe(safe);
  });

  it('shortens long names to 100 characters and keeps the extension', () => {
    const safe = sanitiseFileName(`${'a'.repeat(300)}.docx`);
    expect(safe).toHaveLength(100);
    expect(safe.endsWith('.docx')).toBe(true);
  });

  it('keys a document under its user, agent and file id', () => {
    expect(fileObjectKey('u1', 'A1', 'F1', 'My file.pdf')).toBe('agents/u1/A1/F1/My_file.pdf');
  });

  it('stores the canonical MIME type of the kind (by extension first)', () => {
    expect(canonicalMimeType('old.doc', 'application/octet-stream')).toBe('application/msword');
    expect(canonicalMimeType('notes', 'text/plain')).toBe('text/plain');
    expect(canonicalMimeType('a.PDF', '')).toBe('application/pdf');
  });

  it('lists every refused file with its SPEC §5 reason', () => {
    expect(
      rejectedFiles([
        { name: 'ok.pdf', size: 10, type: 'application/pdf' },
        { name: 'photo.png', size: 10, type: 'image/png' },
        { name: 'huge.pdf', size: 50 * 1024 * 1024 + 1, type: 'application/pdf' },
        { name: 'exactly.txt', size: 50 * 1024 * 1024, type: 'text/plain' },
      ]),
    ).toEqual([
      { name: 'photo.png', reason: 'unsupported type' },
      { name: 'huge.pdf', reason: 'too large, max 50MB' },
    ]);
  });

  it('downloads as an attachment with an ASCII fallback and the exact UTF-8 name', () => {
    expect(attachmentDisposition('Menú "final".pdf')).toBe(
      `attachment; filename="Menu _final_.pdf"; filename*=UTF-8''Men%C3%BA%20%22final%22.pdf`,
    );
    expect(attachmentDisposition("it's (v2).txt")).toBe(`attachment; filename="it's (v2).txt"; filename*=UTF-8''it%27s%20%28v2%29.txt`);
  });
});
