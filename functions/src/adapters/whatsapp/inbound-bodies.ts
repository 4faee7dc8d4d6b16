/**
 * Inbound WhatsApp bodies too large for a queue message, parked in the uploads bucket under
 * INBOUND_BODY_PREFIX (its 1-day lifecycle removes what a worker never deleted). Reached through
 * presigned URLs like the other API functions (no S3 client in the bundle, s3-presigner.ts).
 */
import type { InboundBodyStore } from '../../domain/whatsapp/ports.js';
import type { S3Presigner } from '../s3-presigner.js';
import { s3Failure } from '../s3-failure.js';

export class S3InboundBodyStore implements InboundBodyStore {
  constructor(private readonly presigner: Pick<S3Presigner, 'putUrl' | 'urlFor' | 'deleteUrl'>) {}

  async put(key: string, body: string): Promise<void> {
    const res = await fetch(await this.presigner.putUrl(key), { method: 'PUT', body, headers: { 'content-type': 'application/json' } });
    if (!res.ok) throw s3Failure(`Parking an inbound body in S3 failed with HTTP ${res.status}`, res);
  }

  async get(key: string): Promise<string> {
    const res = await fetch(await this.presigner.urlFor(key));
    if (!res.ok) throw s3Failure(`Reading a parked inbound body from S3 failed with HTTP ${res.status}`, res);
    return res.text();
  }

  async delete(key: string): Promise<void> {
    const res = await fetch(await this.presigner.deleteUrl(key), { method: 'DELETE' });
    if (!res.ok && res.status !== 404) throw s3Failure(`Deleting a parked inbound body failed with HTTP ${res.status}`, res);
  }
}
