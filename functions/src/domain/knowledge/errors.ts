/**
 * A permanent problem with one knowledge source (a file that is not what it claims, a page that
 * answers 404, an address the guard refuses). Ingestion marks the source failed with `message`,
 * which is written for the user and shown next to the file or URL, and does not retry.
 * Anything else thrown while ingesting is treated as transient (the queue retries).
 */
export class KnowledgeSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KnowledgeSourceError';
  }
}

/** The reasons shown to the user: contract texts, so the UI can show them in the user's language. */
export { knowledgeMessages } from '../../contract/server-texts.js';
