/**
 * The user's AI model (the ChatGPT integration): AiConnector for every feature that needs a
 * model (agent chat, the voice webhook and relay, ingestion workers, AI-improve), and the model
 * factory behind it. Models are cached per (API key, base URL) for the warm Lambda (ai-models.ts).
 *
 * Every function reaches the model through the fetch adapter (fetch-model.ts, through the
 * outbound guard), not the `openai` SDK: the SDK builds all its ~30 resources into a bundle
 * (~147 KB minified, issue 28), and the adapter sends the same requests (wire.ts) and reads the
 * same answers. The SDK stays in the tests as the oracle of that wire format
 * (test/unit/openai/fetch-model.test.ts runs both against the fake OpenAI and compares them).
 */
import { OutboundBlockedError, checkOutboundUrl } from '../adapters/outbound/guarded-fetch.js';
import type { PublicUrlCheck } from '../domain/integrations/records.js';

export { integrationRepository } from './ai-models.js';
/** One factory and connector for every function; ai-stream.ts names them for the relay, which streams. */
export { streamingAiConnector as aiConnector, streamingAiModels as aiModels } from './ai-stream.js';

/** False only when the guard refuses the URL (scheme or address); a DNS hiccup is left to the call. */
export const isPublicUrl: PublicUrlCheck = async (url) => {
  try {
    await checkOutboundUrl(url);
    return true;
  } catch (error) {
    return !(error instanceof OutboundBlockedError);
  }
};
