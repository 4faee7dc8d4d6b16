/**
 * A problem with one knowledge source (a file that is not what it claims, a page that answers
 * 404, an address the guard refuses). Ingestion marks the source failed with `message`, which is
 * written for the user and shown next to the file or URL, and does not retry. A `passing` one (a
 * page that answered 5xx or 429, was slow, or dropped the connection: issue 34) is retried on the
 * queue's schedule first and fails with its message only when the schedule is spent.
 * Anything else thrown while ingesting is treated as transient (the queue retries).
 */
export class KnowledgeSourceError extends Error {
  readonly passing: boolean;

  constructor(message: string, options: { passing?: boolean } = {}) {
    super(message);
    this.name = 'KnowledgeSourceError';
    this.passing = options.passing === true;
  }
}

/** The reasons shown to the user: contract texts, so the UI can show them in the user's language. */
export { knowledgeMessages } from '../../contract/server-texts.js';
