/**
 * The fault matrix as a table (part of `npm run bench`, issue 34): each row of
 * test/support/fault-matrix/rows.ts — a dependency failing while customers write, call or upload,
 * then recovering — on a runtime of its own (test/support/fault-matrix/matrix-stack.ts), printed
 * as `fault → lost / duplicated / recovered / owner told`. Exits 1 on any loss, any duplicate, a
 * transient fault not recovered from, a lasting one the owner was not told of, or a row that threw.
 *
 * Rows whose feature has not landed (rows.ts `missing`) are listed as waiting and not run.
 *
 *   --messages=N   WhatsApp messages per row (default 6; calls and documents use fewer)
 *   --rows=a,b     only these rows (ids: openai-500, graph-401, dynamodb-down, …)
 *   --all          run the waiting rows too (they count)
 */
import { arg, table } from './bench-common.js';
import { startMatrixStack } from '../test/support/fault-matrix/matrix-stack.js';
import { matrixRows, rowProblems, type RowOutcome } from '../test/support/fault-matrix/rows.js';

const args = process.argv.slice(2);
const messages = arg('messages', 6);
const all = args.includes('--all');
const only = (args.find((a) => a.startsWith('--rows='))?.slice('--rows='.length) ?? '').split(',').filter(Boolean);
const rows = matrixRows().filter((row) => only.length === 0 || only.includes(row.id));

const yesNo = (v: boolean | null) => (v === null ? '—' : v ? 'yes' : 'no');

console.log(`Fault matrix: ${rows.length} row(s), ${messages} message(s) per row\n`);
const stack = await startMatrixStack();
const lines: string[][] = [];
let failed = false;
try {
  for (const row of rows) {
    if (row.missing && !all) {
      lines.push([row.fault, '', '', '', '', `waits for: ${row.missing}`]);
      continue;
    }
    const started = performance.now();
    let outcome: RowOutcome | null = null;
    let error = '';
    try {
      outcome = await Promise.race([
        row.run(stack, { messages }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${row.timeoutMs / 1000} s`)), row.timeoutMs).unref()),
      ]);
    } catch (e) {
      error = (e as Error).message.split('\n')[0] ?? String(e);
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    const problems = outcome ? rowProblems(row, outcome) : [`error: ${error}`];
    if (problems.length) failed = true;
    lines.push([
      row.fault,
      outcome ? `${outcome.lost}/${outcome.sent}` : '?',
      outcome ? String(outcome.duplicated) : '?',
      outcome ? yesNo(outcome.recovered) : '?',
      outcome ? yesNo(outcome.ownerTold) : '?',
      `${problems.length ? `FAIL: ${problems.join('; ')}` : 'ok'} (${seconds} s)${outcome ? ` — ${outcome.detail}` : ''}`,
    ]);
    console.log(`${row.fault}: ${problems.length ? problems.join('; ') : 'ok'} (${seconds} s)`);
  }
} finally {
  await stack.stop();
}

console.log(`\n${table(['fault', 'lost', 'duplicated', 'recovered', 'owner told', 'note'], lines)}\n`);
console.log(failed ? 'Fault matrix: FAILED (a loss, a duplicate, or a fault not handled)' : 'Fault matrix: every row ok');
process.exitCode = failed ? 1 : 0;
