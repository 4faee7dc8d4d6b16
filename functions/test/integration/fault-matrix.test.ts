/**
 * The fault matrix (issue 34 "Tests"): every dependency failing in turn — OpenAI 500 / 429 / hang,
 * Graph 500 / 401 / 131047, Twilio 503, SES down, S3 down, DynamoDB Local down for 20 s, the
 * runtime crashing with jobs queued — with traffic during the fault, then recovery; every row
 * asserts nothing lost, nothing duplicated, and recovered by itself (transient) or the owner
 * told (lasting). The rows live in support/fault-matrix/rows.ts (the bench prints the same rows
 * as a table: scripts/bench-fault-matrix.ts).
 *
 * The matrix takes whole services down, so it runs on a stack of its own, in a process of its
 * own (support/fault-matrix/matrix-stack.ts), never on the shared one.
 *
 * A row whose feature has not landed is skipped with that feature named (rows.ts `missing`).
 * FAULT_MATRIX_ALL=1 runs those too; FAULT_MATRIX_ROWS=openai-500,graph-401 runs only those.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMatrixStack, type MatrixStack } from '../support/fault-matrix/matrix-stack.js';
import { matrixRows, rowProblems } from '../support/fault-matrix/rows.js';

const MESSAGES = 6;
const all = process.env.FAULT_MATRIX_ALL === '1';
const only = (process.env.FAULT_MATRIX_ROWS ?? '').split(',').map((r) => r.trim()).filter(Boolean);
const rows = matrixRows().filter((row) => only.length === 0 || only.includes(row.id));

let stack: MatrixStack | undefined;

beforeAll(async () => {
  stack = await startMatrixStack();
}, 180_000);

afterAll(async () => {
  await stack?.stop();
}, 60_000);

describe('fault matrix (issue 34)', () => {
  for (const row of rows) {
    const title = `${row.fault}: nothing lost or duplicated, ${row.transient ? 'recovered with nobody acting' : 'the owner told'}`;
    const test = row.missing && !all ? it.skip : it;
    test(row.missing && !all ? `${title} — waits for ${row.missing}` : title, async () => {
      const outcome = await row.run(stack!, { messages: MESSAGES });
      expect(rowProblems(row, outcome), outcome.detail).toEqual([]);
    }, row.timeoutMs);
  }
});
