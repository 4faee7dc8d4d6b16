/**
 * Issue 33: a StepContext for driving one PersonDataPart outside a job (integration tests, the
 * erasure bench): its remembered ids live in memory as long as the context (a job keeps them on
 * its item), and `over` replaces any member (a shouldYield that turns true, a progress counter).
 */
import type { RememberedKind, StepContext } from '../../src/domain/privacy/ports.js';
import { newId } from '../../src/lib/ids.js';

export function memoryStepContext(over: Partial<StepContext> = {}): StepContext & { memory: Map<RememberedKind, Set<string>> } {
  const memory = new Map<RememberedKind, Set<string>>();
  return {
    jobId: newId(),
    now: new Date(),
    progress: async () => undefined,
    shouldYield: () => false,
    async remember(kind, ids) {
      const set = memory.get(kind) ?? new Set<string>();
      for (const id of ids) set.add(id);
      memory.set(kind, set);
    },
    remembered: async (kind) => [...(memory.get(kind) ?? [])],
    memory,
    ...over,
  };
}
