/**
 * WhatsApp media wiring (issue 31): the Graph media API (WHATSAPP_GRAPH_URL: Meta's, or the fake
 * Graph server locally) and our copies in the uploads bucket (UPLOADS_BUCKET, presigned requests
 * only). Used by the whatsapp-inbound worker (a customer's media), the owner's attachments and the
 * inbox's view links.
 */
import { config } from '../config.js';
import { S3MediaObjects } from '../adapters/s3-media.js';
import { HttpGraphMediaClient } from '../adapters/whatsapp/graph-media.js';
import type { GraphMediaClient, MediaObjects } from '../domain/whatsapp/media/ports.js';
import { once } from '../lib/once.js';
import { privacySettingsStore } from './privacy-settings-store.js';
import { uploadsPresigner } from './user-view.js';

export const graphMediaClient = once((): GraphMediaClient => new HttpGraphMediaClient({ baseUrl: config().WHATSAPP_GRAPH_URL }));

// Issue 33: each object is tagged with its account's media retention (the bucket's lifecycle rules expire it by the tag).
export const mediaObjects = once((): MediaObjects => new S3MediaObjects(uploadsPresigner(), fetch, privacySettingsStore()));
