/**
 * What the whatsapp-inbound worker understands of a customer's media (issue 31,
 * domain/whatsapp/media/understand.ts): the user's ChatGPT connection's transcriber (the fetch
 * model, OPENAI_TRANSCRIPTION_MODEL), the knowledge extractors for documents (their own safety
 * limits: zip-bomb, page and size checks), the plan's minutes, and our copies in the bucket.
 * The worker's composition hands over its AI connector (so key failures are reported as its
 * chat's are) and its media objects.
 */
import { logger } from '../adapters/logger.js';
import { extractFileText } from '../adapters/extract/index.js';
import type { AiConnector } from '../domain/ai/ports.js';
import type { MediaObjects, MediaUnderstanding } from '../domain/whatsapp/media/ports.js';
import { createMediaUnderstanding } from '../domain/whatsapp/media/understand.js';
import { usageService } from './usage.js';

export function mediaUnderstanding(deps: { ai: AiConnector; objects: Pick<MediaObjects, 'get'> }): MediaUnderstanding {
  return createMediaUnderstanding({
    ai: deps.ai,
    objects: deps.objects,
    documents: extractFileText,
    usage: usageService(),
    onError: (message, error) => logger.warn(message, { error: error as Error }),
  });
}
