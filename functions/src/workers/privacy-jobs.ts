/**
 * privacy-jobs consumer (issue 33), one job per message: a person's erasure or export, or the
 * account's deletion. PLACEHOLDER: helper "privacy-core" writes the dispatch.
 */
import { sqsWorker } from './sqs-worker.js';

export const handler = sqsWorker('privacy-jobs', async () => {
  throw new Error('privacy jobs not built yet');
});
