/** Content sniffing of uploaded documents: real documents pass, renamed programs and archives are refused with a reason. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { agentMessages } from '../../../src/contract/agents.js';
import { contentMismatch, sniffKind, zipEntryNames } from '../../../src/domain/knowledge/sniff.js';
import { buildDocx } from '../../fixtures/knowledge/builders.js';
import { FIXTURE_FILES } from '../../fixtures/knowledge/content.js';

const fixturesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/knowledge');
const fixture = (name: string) => new Uint8Array(readFileSync(path.join(fixturesDir, name)));
const text = (s: string) => new TextEncoder().encode(s);

/** A minimal Windows program: DOS header whose e_lfanew (0x3c) points at "PE\0\0". */
function windowsExe(): Uint8Array {
  const bytes = new Uint8Array(512);
  bytes.set([0x4d, 0x5a, 0x90, 0x00, 0x03], 0);
  new DataView(bytes.buffer).setUint32(0x3c, 0x80, true);
  bytes.set([0x50, 0x45, 0x00, 0x00], 0x80);
  return bytes;
}

async function zipWith(names: string[]): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const name of names) zip.file(name, 'x', { createFolders: false });
  return zip.generateAsync({ type: 'uint8array' });
}

describe('sniffKind', () => {
  it('recognises the committed fixtures by their content', () => {
    expect(sniffKind(fixture(FIXTURE_FILES.pdf))).toBe('pdf');
    expect(sniffKind(fixture(FIXTURE_FILES.docx))).toBe('docx');
    expect(sniffKind(fixture(FIXTURE_FILES.doc))).toBe('doc');
    expect(sniffKind(fixture(FIXTURE_FILES.txt))).toBe('text');
  });

  it('recognises programs (Windows, Linux, macOS) but not text that happens to start with MZ', () => {
    expect(sniffKind(windowsExe())).toBe('executable');
    expect(sniffKind(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]))).toBe('executable');
    expect(sniffKind(new Uint8Array([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1]))).toBe('executable');
    expect(sniffKind(text('MZ Logistics price list: pallets 40 EUR'))).toBe('text');
  });

  it('tells a Word package from any other zip, and a Word 97 file from any other OLE2 file', async () => {
    expect(sniffKind(await zipWith(['[Content_Types].xml', 'word/document.xml']))).toBe('docx');
    expect(sniffKind(await zipWith(['[Content_Types].xml', 'xl/workbook.xml']))).toBe('zip');
    const ole = new Uint8Array(1024);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(sniffKind(ole)).toBe('ole2');
  });

  it('reads zip entry names from the central directory, and from local headers when it is cut off', async () => {
    const zip = await zipWith(['word/document.xml', 'docProps/core.xml']);
    expect(zipEntryNames(zip)).toEqual(['word/document.xml', 'docProps/core.xml']);
    expect(zipEntryNames(zip.subarray(0, zip.length - 30))).toEqual(['word/document.xml', 'docProps/core.xml']);
  });

  it('takes UTF-16 text as text and NUL-laden bytes as binary', () => {
    expect(sniffKind(new Uint8Array([0xff, 0xfe, ...Buffer.from('Hola', 'utf16le')]))).toBe('text');
    expect(sniffKind(new Uint8Array(Buffer.from('Opening hours: 9 to 5', 'utf16le')))).toBe('text');
    expect(sniffKind(new Uint8Array([1, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 9, 9, 0, 0]))).toBe('binary');
    expect(sniffKind(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('image');
  });
});

describe('contentMismatch', () => {
  it('accepts each real document under its own kind, and a Word file in the other Word container', async () => {
    expect(contentMismatch('pdf', fixture(FIXTURE_FILES.pdf))).toBeNull();
    expect(contentMismatch('docx', fixture(FIXTURE_FILES.docx))).toBeNull();
    expect(contentMismatch('doc', fixture(FIXTURE_FILES.doc))).toBeNull();
    expect(contentMismatch('txt', fixture(FIXTURE_FILES.txt))).toBeNull();
    expect(contentMismatch('doc', await buildDocx({ title: 'T', paragraphs: ['p'] }))).toBeNull();
    expect(contentMismatch('docx', fixture(FIXTURE_FILES.doc))).toBeNull();
    // Readers allow the PDF header after some leading bytes.
    expect(contentMismatch('pdf', new Uint8Array([...text('\r\n\r\n'), ...fixture(FIXTURE_FILES.pdf)]))).toBeNull();
  });

  it.each(['pdf', 'docx', 'doc', 'txt'] as const)('refuses a renamed Windows program as .%s: it is a program', (kind) => {
    expect(contentMismatch(kind, windowsExe())).toBe(agentMessages.fileIsProgram);
  });

  it('refuses content that is not of the declared kind, with the kind in the reason', async () => {
    expect(contentMismatch('pdf', text('This is a text file renamed to .pdf'))).toBe(agentMessages.fileNotReallyPdf);
    expect(contentMismatch('pdf', fixture(FIXTURE_FILES.docx))).toBe(agentMessages.fileNotReallyPdf);
    expect(contentMismatch('docx', await zipWith(['xl/workbook.xml']))).toBe(agentMessages.fileNotReallyWord);
    expect(contentMismatch('doc', fixture(FIXTURE_FILES.pdf))).toBe(agentMessages.fileNotReallyWord);
    expect(contentMismatch('txt', fixture(FIXTURE_FILES.pdf))).toBe(agentMessages.fileNotReallyText);
    expect(contentMismatch('txt', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toBe(agentMessages.fileNotReallyText);
    expect(contentMismatch('txt', new Uint8Array([0x41, 0x00, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x00]))).toBe(agentMessages.fileNotReallyText);
  });
});
