import { describe, expect, it } from 'vitest';
import { AGENT_FILE_MAX_BYTES, invalidFilesMessage } from '@agentdesk/functions/contract';
import { checkFiles, runPool } from './files';

describe('file checks', () => {
  it('accepts PDF, TXT, DOC and DOCX up to 50 MB and says why others are refused', () => {
    const { accepted, rejected } = checkFiles([
      { name: 'prices.pdf', size: 1000, type: 'application/pdf' },
      { name: 'notes.txt', size: 10, type: 'text/plain' },
      { name: 'old.doc', size: 10, type: '' },
      { name: 'new.docx', size: AGENT_FILE_MAX_BYTES, type: '' },
      { name: 'huge.pdf', size: AGENT_FILE_MAX_BYTES + 1, type: 'application/pdf' },
      { name: 'photo.png', size: 10, type: 'image/png' },
    ]);
    expect(accepted.map((f) => f.name)).toEqual(['prices.pdf', 'notes.txt', 'old.doc', 'new.docx']);
    expect(invalidFilesMessage(rejected)).toBe('Invalid files: huge.pdf (too large, max 50MB), photo.png (unsupported type)');
  });

  it('runs uploads at most n at a time, each once', async () => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    await runPool([1, 2, 3, 4, 5], 2, async (item) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      seen.push(item);
      running -= 1;
    });
    expect(peak).toBe(2);
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5]);
  });
});
