/**
 * The hash the SDK's SignatureV4 takes (`sha256` option), over node:crypto: the tests compare our
 * hand-written SigV4 (adapters/aws/sigv4.ts) with the SDK's own signer.
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';

type SourceData = string | ArrayBuffer | ArrayBufferView;
const asBytes = (data: SourceData) =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);

export class Sha256 {
  private readonly h: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.h = secret ? createHmac('sha256', asBytes(secret)) : createHash('sha256');
  }
  update(data: SourceData) {
    this.h.update(asBytes(data));
  }
  async digest() {
    return new Uint8Array(this.h.digest());
  }
}
