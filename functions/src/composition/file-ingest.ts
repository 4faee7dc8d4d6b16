/** Wires the file-ingest worker: uploads read through presigned GETs, PDF/Word/text extraction. */
import { AGENT_FILE_MAX_BYTES } from '../contract/agents.js';
import { extractFileText } from '../adapters/extract/index.js';
import { PresignedObjectReader } from '../adapters/extract/upload-reader.js';
import { createKnowledgeIngestion } from '../domain/knowledge/ingest.js';
import { once } from '../lib/once.js';
import { ingestDeps } from './knowledge-ingest.js';
import { uploadsPresigner } from './user-view.js';

export const fileIngestion = once(() => {
  const uploads = new PresignedObjectReader(uploadsPresigner(), AGENT_FILE_MAX_BYTES);
  return createKnowledgeIngestion({ ...ingestDeps(), files: { read: (key) => uploads.read(key), extract: extractFileText } });
});
