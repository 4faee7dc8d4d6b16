/**
 * The .doc (OLE2) checks before word-extractor (issue 28). Without them, one changed FAT entry in
 * a 10 KB .doc (a chain A → B → A) sends word-extractor into a synchronous loop that ends the
 * whole process ("Fatal JavaScript invalid size error"), and header counts size its buffers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkCompoundFile } from '../../../src/adapters/extract/ole-guard.js';
import { extractDoc, extractDocx } from '../../../src/adapters/extract/word.js';
import { DEFAULT_CHUNKING, MAX_DOCUMENT_CHARS } from '../../../src/domain/knowledge/chunking.js';
import { KnowledgeSourceError, knowledgeMessages } from '../../../src/domain/knowledge/errors.js';
import { FIXTURE_FILES } from '../../fixtures/knowledge/content.js';

const fixturesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/knowledge');
const doc = () => Buffer.from(readFileSync(path.join(fixturesDir, FIXTURE_FILES.doc)));
/** The committed .doc with 512-byte sectors: FAT sector 0 (file offset 512); the directory chain is 18 → 19, a stream runs 3 → … → 6 → 17. */
const FAT = 512;
const withFat = (entry: number, value: number) => {
  const bytes = doc();
  bytes.writeInt32LE(value, FAT + entry * 4);
  return bytes;
};

async function refused(promise: Promise<unknown>, message: string) {
  await expect(promise).rejects.toBeInstanceOf(KnowledgeSourceError);
  await expect(promise).rejects.toThrow(message);
}

describe('.doc (OLE2) checks', () => {
  it('passes the committed .doc files and reads them as before', async () => {
    expect(() => checkCompoundFile(doc())).not.toThrow();
    expect(() => checkCompoundFile(new Uint8Array(readFileSync(path.join(fixturesDir, 'tasca-horario-alergenos.doc'))))).not.toThrow();
    expect((await extractDoc(doc())).blocks.length).toBeGreaterThan(0);
  });

  it('refuses sector chains that loop (the file that ended the process) or leave the file, quickly', async () => {
    const started = performance.now();
    // The directory's chain 18 → 19 → 18.
    await refused(extractDoc(withFat(19, 18)), knowledgeMessages.notDoc);
    // A stream's chain back to its start.
    await refused(extractDoc(withFat(17, 3)), knowledgeMessages.notDoc);
    // A sector far past the end of the file.
    await refused(extractDoc(withFat(16, 99_999)), knowledgeMessages.notDoc);
    // Also when the .doc is uploaded under a .docx name.
    await refused(extractDocx(withFat(19, 18)), knowledgeMessages.notDoc);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('refuses header counts larger than the file (word-extractor would size buffers from them)', async () => {
    const bytes = doc();
    bytes.writeInt32LE(1_000_000, 44); // FAT sectors
    await refused(extractDoc(bytes), knowledgeMessages.notDoc);
    const mini = doc();
    mini.writeInt32LE(1_000_000, 64); // mini FAT sectors
    await refused(extractDoc(mini), knowledgeMessages.notDoc);
  });

  it('refuses a stream whose declared size is larger than the file', async () => {
    const bytes = doc();
    const secSize = 1 << bytes.readInt16LE(30);
    const dir = (bytes.readInt32LE(48) + 1) * secSize;
    // The first stream entry after the root: its size field.
    const entry = [1, 2, 3].map((i) => dir + i * 128).find((at) => bytes.readInt8(at + 66) === 2)!;
    bytes.writeInt32LE(bytes.length * 10, entry + 120);
    await refused(extractDoc(bytes), knowledgeMessages.notDoc);
  });

  it('refuses a piece table asking for more text than a document may have (pieces may repeat the same bytes)', async () => {
    expect(MAX_DOCUMENT_CHARS).toBe(DEFAULT_CHUNKING.maxChunks * DEFAULT_CHUNKING.maxChars * 4);
    // The real piece table of the fixture against a budget below its text.
    expect(() => checkCompoundFile(doc(), 50)).toThrow(knowledgeMessages.tooManyChunks(DEFAULT_CHUNKING.maxChunks));
    expect(() => checkCompoundFile(doc(), 100_000)).not.toThrow();
  });
});
