/**
 * A minimal ZIP writer for the tests that need archives jszip will not write: sizes in the
 * central directory that lie, a compression ratio no real document has (a zip bomb). Entries are
 * deflated with node:zlib (or stored); nothing here reads ZIPs.
 */
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntryInput {
  name: string;
  data: Uint8Array | string;
  /** 'store' keeps the bytes as they are; deflate (level 9) otherwise. */
  method?: 'store' | 'deflate';
  /** The uncompressed size written in the headers, when it must differ from the real one (a lie). */
  declaredSize?: number;
}

export interface ZipOptions {
  /** Central directory sizes as 0xFFFFFFFF with the real ones in a ZIP64 extra field (as some writers do for any size). */
  zip64?: boolean;
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};

export function zip(entries: readonly ZipEntryInput[], options: ZipOptions = {}): Uint8Array {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data) : Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength);
    const stored = entry.method === 'store';
    const body = stored ? data : deflateRawSync(data, { level: 9 });
    const name = Buffer.from(entry.name);
    const size = entry.declaredSize ?? data.length;
    // version, flags (bit 11: UTF-8 names), method, time, date, crc, sizes, name length, extra length
    const head = (sizes: Buffer[], extra: Buffer) =>
      Buffer.concat([u16(20), u16(0x0800), u16(stored ? 0 : 8), u16(0), u16(0x21), u32(crc32(data)), ...sizes, u16(name.length), u16(extra.length)]);
    const local = Buffer.concat([u32(0x04034b50), head([u32(body.length), u32(size)], Buffer.alloc(0)), name, body]);
    const extra = options.zip64 ? Buffer.concat([u16(0x0001), u16(16), u64(size), u64(body.length)]) : Buffer.alloc(0);
    const sizes = options.zip64 ? [u32(0xffffffff), u32(0xffffffff)] : [u32(body.length), u32(size)];
    central.push(Buffer.concat([u32(0x02014b50), u16(45), head(sizes, extra), u16(0), u16(0), u16(0), u32(0), u32(offset), name, extra]));
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(entries.length), u16(entries.length), u32(directory.length), u32(offset), u16(0)]);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const ROOT_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

/** word/document.xml holding `paragraphs` as <w:p> paragraphs. */
export function documentXml(paragraphs: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
    paragraphs +
    '</w:body></w:document>'
  );
}

/** A minimal DOCX package: content types, the package relationship and word/document.xml (its entry options given). */
export function docxPackage(document: Omit<ZipEntryInput, 'name'>, extra: readonly ZipEntryInput[] = [], options: ZipOptions = {}): Uint8Array {
  return zip([{ name: '[Content_Types].xml', data: CONTENT_TYPES }, { name: '_rels/.rels', data: ROOT_RELS }, { name: 'word/document.xml', ...document }, ...extra], options);
}

/**
 * The zip bomb of issue 28: a DOCX whose word/document.xml is ~`megabytes` MB of one repeated
 * <w:p> paragraph (3.4 million of them at 150 MB), deflated to a few hundred KB.
 */
export function docxZipBomb(megabytes = 150): Uint8Array {
  const paragraph = '<w:p><w:r><w:t>Zip bomb paragraph.</w:t></w:r></w:p>';
  const xml = Buffer.from(documentXml(paragraph.repeat(Math.ceil((megabytes * 1024 * 1024) / paragraph.length))));
  return docxPackage({ data: xml });
}
