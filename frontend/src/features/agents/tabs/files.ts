/** Pure helpers of the Files tab's uploads. */
import { rejectFileReason, type RejectedFileReason } from '@agentdesk/functions/contract';

/** Splits the chosen files into the ones to upload and the rejected ones with why. */
export function checkFiles<F extends { name: string; size: number; type: string }>(
  files: readonly F[],
): { accepted: F[]; rejected: { name: string; reason: RejectedFileReason }[] } {
  const accepted: F[] = [];
  const rejected: { name: string; reason: RejectedFileReason }[] = [];
  for (const file of files) {
    const reason = rejectFileReason(file);
    if (reason) rejected.push({ name: file.name, reason });
    else accepted.push(file);
  }
  return { accepted, rejected };
}

/** Runs `work` over the items with at most `size` at a time. */
export async function runPool<T>(items: readonly T[], size: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}
