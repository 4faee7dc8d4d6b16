/**
 * An owner's attachment (issue 31): which files may be attached and how big, the file name the
 * customer sees, the staged upload checked again before it is sent, and the signed form carrying
 * the file name (the local S3 gate accepts it as S3 would, and refuses another name).
 */
import { describe, expect, it } from 'vitest';
import { MEDIA_LIMITS, mediaMessages } from '../../../src/contract/whatsapp-media.js';
import { S3Presigner } from '../../../src/adapters/s3-presigner.js';
import { attachmentFileName, attachmentStagingKey, checkAttachment, loadAttachment, type AttachmentStore, type StagedAttachment } from '../../../src/domain/conversations/attachments.js';
import { checkPostPolicy } from '../../../local/s3-post-policy.js';

describe('checkAttachment', () => {
  it('images (JPG, PNG) up to 5 MB and documents up to 16 MB, by their canonical type', () => {
    expect(checkAttachment('image/jpeg', 1)).toEqual({ kind: 'image', mimeType: 'image/jpeg' });
    expect(checkAttachment('Application/PDF; charset=binary', MEDIA_LIMITS.attachmentMaxBytes.document)).toEqual({ kind: 'document', mimeType: 'application/pdf' });
    expect(() => checkAttachment('image/png', MEDIA_LIMITS.attachmentMaxBytes.image + 1)).toThrow(mediaMessages.attachmentTooLarge);
    expect(() => checkAttachment('application/pdf', 0)).toThrow(mediaMessages.attachmentTooLarge);
    expect(() => checkAttachment('application/pdf', 1.5)).toThrow(mediaMessages.attachmentTooLarge);
    for (const type of ['image/webp', 'image/gif', 'application/zip', 'video/mp4', 'audio/ogg', '']) expect(() => checkAttachment(type, 10)).toThrow(mediaMessages.attachmentTypeInvalid);
  });

  it('the file name keeps its accents and spaces, loses any path and control characters, at most 200 characters', () => {
    expect(attachmentFileName('Presupuesto Dra. Pérez.pdf')).toBe('Presupuesto Dra. Pérez.pdf');
    expect(attachmentFileName('C:\\Users\\ana\\Menú\u0000 del día.docx')).toBe('Menú del día.docx');
    expect(attachmentFileName('/tmp/')).toBe('');
    expect(attachmentFileName(`${'a'.repeat(250)}.pdf`)).toHaveLength(200);
  });
});

/** A store holding one staged object (or none). */
function storeWith(staged: (StagedAttachment & { bytes?: Uint8Array | 'too_large' }) | null): AttachmentStore & { reads: number } {
  return {
    reads: 0,
    uploadRequest: () => Promise.reject(new Error('not used')),
    staged: () => Promise.resolve(staged),
    read(this: { reads: number }) {
      this.reads++;
      return Promise.resolve(staged ? (staged.bytes ?? new Uint8Array(staged.size)) : null);
    },
    keep: () => Promise.resolve(),
    delete: () => Promise.resolve(),
  };
}

describe('loadAttachment', () => {
  const id = '01JABCDEFGHJKMNPQRSTVWXYZ0';

  it('reads a staged PDF once, with its name and the caption', async () => {
    const store = storeWith({ size: 3, contentType: 'application/pdf', fileName: 'Factura nº 7.pdf', bytes: new Uint8Array([1, 2, 3]) });
    const file = await loadAttachment(store, 'user-1', id, 'Tu factura');
    expect(file).toMatchObject({ kind: 'document', mimeType: 'application/pdf', fileName: 'Factura nº 7.pdf', caption: 'Tu factura', size: 3, stagingKey: attachmentStagingKey('user-1', id) });
    expect(store.reads).toBe(1);
  });

  it('not uploaded (no object, or one without our file name), stored with another type or size, grown since the HEAD: 400s, nothing read past the check', async () => {
    await expect(loadAttachment(storeWith(null), 'u', id, '')).rejects.toThrow(mediaMessages.attachmentNotUploaded);
    await expect(loadAttachment(storeWith({ size: 3, contentType: 'application/pdf', fileName: '' }), 'u', id, '')).rejects.toThrow(mediaMessages.attachmentNotUploaded);
    const zip = storeWith({ size: 3, contentType: 'application/zip', fileName: 'a.zip' });
    await expect(loadAttachment(zip, 'u', id, '')).rejects.toThrow(mediaMessages.attachmentTypeInvalid);
    expect(zip.reads).toBe(0);
    const big = storeWith({ size: MEDIA_LIMITS.attachmentMaxBytes.image + 1, contentType: 'image/png', fileName: 'a.png' });
    await expect(loadAttachment(big, 'u', id, '')).rejects.toThrow(mediaMessages.attachmentTooLarge);
    expect(big.reads).toBe(0);
    await expect(loadAttachment(storeWith({ size: 3, contentType: 'image/png', fileName: 'a.png', bytes: 'too_large' }), 'u', id, '')).rejects.toThrow(mediaMessages.attachmentTooLarge);
  });
});

describe('the signed form carries the file name', () => {
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const NOW = Date.parse('2026-11-28T10:00:00Z');

  it('as x-amz-meta-filename, signed: the S3 gate accepts it and refuses another name', async () => {
    const presigner = new S3Presigner({ bucket: 'uploads', region: 'us-east-1', endpoint: 'http://127.0.0.1:1', expiresInSeconds: 600, credentials: async () => credentials, now: () => NOW });
    const name = encodeURIComponent('Presupuesto Dra. Pérez.pdf');
    const { fields } = await presigner.postPolicy('incoming/attachments/u/x', { contentType: 'application/pdf', minBytes: 1, maxBytes: 100, metadata: { FileName: name } });
    expect(fields['x-amz-meta-filename']).toBe(name);
    const asSent = (overrides: Record<string, string> = {}) => new Map(Object.entries({ ...fields, ...overrides }).map(([k, v]) => [k.toLowerCase(), v]));
    const at = new Date(NOW + 1000);
    expect(checkPostPolicy('uploads', asSent(), credentials, at)).toEqual({ minBytes: 1, maxBytes: 100 });
    expect(() => checkPostPolicy('uploads', asSent({ 'x-amz-meta-filename': 'other.pdf' }), credentials, at)).toThrow(/Policy Condition failed/);
  });
});
