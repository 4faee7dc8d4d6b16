/**
 * The DOCX package checks (issue 28): real documents pass, zip bombs are refused from the central
 * directory before anything is unpacked, sizes that lie are caught while unpacking, and what
 * mammoth may read is bounded.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DOCX_LIMITS, openDocxPackage } from '../../../src/adapters/extract/docx-package.js';
import { extractDoc, extractDocx } from '../../../src/adapters/extract/word.js';
import { KnowledgeSourceError, knowledgeMessages } from '../../../src/domain/knowledge/errors.js';
import { readZipDirectory } from '../../../src/domain/knowledge/zip-directory.js';
import { buildDocx } from '../../fixtures/knowledge/builders.js';
import { docxPackage, docxZipBomb, documentXml, zip } from '../../support/zip.js';

const fixturesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/knowledge');
const MB = 1024 * 1024;

async function refused(promise: Promise<unknown>, message: string) {
  await expect(promise).rejects.toBeInstanceOf(KnowledgeSourceError);
  await expect(promise).rejects.toThrow(message);
}

/** `count` paragraphs, each with its own number (packs like real text, well under 100:1). */
const numbered = (count: number, text = 'Row') => Array.from({ length: count }, (_, i) => `<w:p><w:r><w:t>${text} ${i} of the price list</w:t></w:r></w:p>`).join('');

describe('DOCX package checks', () => {
  it('passes real documents: the committed fixture, a jszip package, and one whose directory uses ZIP64 fields', async () => {
    const fixture = new Uint8Array(readFileSync(path.join(fixturesDir, 'bakery-hours.docx')));
    expect((await extractDocx(fixture)).blocks.length).toBeGreaterThan(0);

    const built = await buildDocx({ title: 'Opening hours', paragraphs: ['Monday to Friday, 9 to 17.'] });
    expect((await extractDocx(built)).blocks).toContainEqual({ kind: 'paragraph', text: 'Monday to Friday, 9 to 17.' });

    const zip64 = docxPackage({ data: documentXml('<w:p><w:r><w:t>Closed on Sundays.</w:t></w:r></w:p>') }, [], { zip64: true });
    const directory = readZipDirectory(zip64);
    expect(directory.ok && directory.entries.find((e) => e.name === 'word/document.xml')?.uncompressedSize).toBeGreaterThan(100);
    expect((await extractDocx(zip64)).blocks).toEqual([{ kind: 'paragraph', text: 'Closed on Sundays.' }]);
  });

  it('refuses the issue’s bomb (150 MB of one paragraph in a few hundred KB) from the central directory, before unpacking it', async () => {
    const bomb = docxZipBomb(150);
    expect(bomb.length).toBeLessThan(MB);

    const started = performance.now();
    await refused(extractDocx(bomb), knowledgeMessages.zipBomb);
    // Read as a .doc too (a DOCX renamed .doc goes through the same package).
    await refused(extractDoc(bomb), knowledgeMessages.zipBomb);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('refuses a large entry packed tighter than 100:1, not a small one', async () => {
    const tight = docxPackage({ data: documentXml('<w:p><w:r><w:t>same</w:t></w:r></w:p>'.repeat(60_000)) });
    const directory = readZipDirectory(tight);
    const entry = directory.ok ? directory.entries.find((e) => e.name === 'word/document.xml')! : undefined;
    expect(entry!.uncompressedSize).toBeGreaterThan(DOCX_LIMITS.ratioFloorBytes);
    expect(entry!.uncompressedSize / entry!.compressedSize).toBeGreaterThan(100);
    await refused(extractDocx(tight), knowledgeMessages.zipBomb);

    // Under the 1 MB floor the same packing is harmless and reads.
    const small = docxPackage({ data: documentXml('<w:p><w:r><w:t>same</w:t></w:r></w:p>'.repeat(2_000)) });
    expect((await extractDocx(small)).blocks).toHaveLength(2_000);
  });

  it('refuses sizes that lie: a deflated part that unpacks past its declared size is stopped there, a stored part whose sizes differ', async () => {
    const xml = documentXml(numbered(20_000));
    const lying = docxPackage({ data: xml, declaredSize: 4_000 });
    // The directory looks harmless: 4 KB declared, a normal ratio.
    const directory = readZipDirectory(lying);
    expect(directory.ok && directory.entries.find((e) => e.name === 'word/document.xml')?.uncompressedSize).toBe(4_000);
    await refused(extractDocx(lying), knowledgeMessages.zipBomb);
    await refused(openDocxPackage(lying).read('word/document.xml', 'utf-8'), knowledgeMessages.zipBomb);

    await refused(extractDocx(docxPackage({ data: xml, method: 'store', declaredSize: 100 })), knowledgeMessages.zipBomb);
  });

  it('refuses more than 5,000 entries, and declared sizes over 100 MB in all', async () => {
    const many = docxPackage({ data: documentXml(numbered(10)) }, Array.from({ length: DOCX_LIMITS.maxEntries }, (_, i) => ({ name: `word/media/image${i}.png`, data: 'x' })));
    await refused(extractDocx(many), knowledgeMessages.zipBomb);

    // 21 parts that each declare 5 MB at a plausible ratio (~85:1; a lie, but only the sum is over).
    const huge = docxPackage({ data: documentXml(numbered(10)) }, Array.from({ length: 21 }, (_, i) => ({ name: `word/media/image${i}.emf`, data: randomBytes(60 * 1024), declaredSize: 5 * MB })));
    await refused(extractDocx(huge), knowledgeMessages.documentTooComplex);
  });

  it('stops what mammoth may read at 400,000 tags (~1.3 KB of parser memory each)', async () => {
    // 70,000 numbered paragraphs: 420,000 tags in ~3.6 MB, packed well under 100:1.
    const heavy = docxPackage({ data: documentXml(numbered(70_000)) });
    const directory = readZipDirectory(heavy);
    const entry = directory.ok ? directory.entries.find((e) => e.name === 'word/document.xml')! : undefined;
    expect(entry!.uncompressedSize / entry!.compressedSize).toBeLessThan(DOCX_LIMITS.maxRatio);
    await refused(extractDocx(heavy), knowledgeMessages.documentTooComplex);

    // Below the budget the same kind of document reads, every paragraph.
    expect((await extractDocx(docxPackage({ data: documentXml(numbered(1_000)) }))).blocks).toHaveLength(1_000);
  });

  it('counts bytes and tags over every part read, and answers the encodings mammoth asks for', async () => {
    const pkg = openDocxPackage(zip([{ name: 'a.xml', data: '<a><b/></a>' }, { name: 'img.bin', data: 'hi', method: 'store' }]), { ...DOCX_LIMITS, maxReadTags: 4 });
    expect(pkg.exists('a.xml')).toBe(true);
    expect(pkg.exists('missing.xml')).toBe(false);
    expect(await pkg.read('img.bin', 'base64')).toBe('aGk=');
    expect(await pkg.read('a.xml', 'utf-8')).toBe('<a><b/></a>');
    // The second read of the same part takes the tags over 4.
    await refused(pkg.read('a.xml'), knowledgeMessages.documentTooComplex);
    await expect(openDocxPackage(zip([{ name: 'a.xml', data: 'x' }])).read('missing.xml')).rejects.toThrow('No missing.xml');
  });

  it('says the file is not a Word document when the ZIP cannot be read (no end record, cut off)', async () => {
    const good = docxPackage({ data: documentXml(numbered(10)) });
    await refused(extractDocx(good.subarray(0, good.length - 30)), knowledgeMessages.notDocx);
    await refused(extractDoc(good.subarray(0, 200)), knowledgeMessages.notDoc);
  });
});
