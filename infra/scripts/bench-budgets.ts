/**
 * The Lambda budgets of `npm run bench` (infra/scripts/bench.ts) and the verdict on one measured
 * row: kept apart from the measuring so the rule "a row over its budget, or not measured, fails
 * the run" is tested on its own (infra/test/bench-budgets.test.ts).
 */

/** Every API and WebSocket function: bundle (minified) and cold module load. */
export const API_BUDGET = { sizeKb: 400, loadMs: 150 } as const;

/**
 * A customer's first contact (issue 28): the incoming-call webhook (POST …/twilio/{userId}/voice,
 * served by the voice-webhook function with the rest of the call loop), the WhatsApp webhook and
 * the voice relay answer before anything else of ours has run, so their cold start is the
 * customer's wait (a ringing line, silence, a delayed WhatsApp tick).
 */
export const FIRST_CONTACT_BUDGET = { sizeKb: 300, loadMs: 100 } as const;

/** The functions held to FIRST_CONTACT_BUDGET, by manifest name; one that is not in the manifest is a missing row. */
export const FIRST_CONTACT_FUNCTIONS = ['voice-webhook', 'whatsapp-webhook', 'voice-relay'] as const;

/**
 * Workers run off the request path (a queued job waits for them anyway), and document parsing
 * needs pdf.js (~1.6 MB) whatever we do: their bundles are reported, not budgeted, and only
 * their cold load has a (looser) budget.
 */
export const WORKER_BUDGET = { sizeKb: Infinity, loadMs: 1000 } as const;

export const LOGIN_BUDGET_KB = 250;

export type FnKind = 'api' | 'worker' | 'socket' | 'trigger';

export interface Budget {
  sizeKb: number;
  loadMs: number;
}

export function budgetOf(row: { kind: FnKind; name: string }): Budget {
  if (row.kind === 'worker') return WORKER_BUDGET;
  if ((FIRST_CONTACT_FUNCTIONS as readonly string[]).includes(row.name)) return FIRST_CONTACT_BUDGET;
  return API_BUDGET;
}

export interface MeasuredRow {
  kind: FnKind;
  name: string;
  sizeKb?: number;
  loadMs?: number;
  error?: string;
}

/** What is wrong with a row (empty: within its budgets). A row without both figures is "not measured". */
export function problems(row: MeasuredRow): string[] {
  if (row.error) return [row.error];
  if (row.sizeKb === undefined || row.loadMs === undefined) return ['not measured'];
  const budget = budgetOf(row);
  const out: string[] = [];
  if (row.sizeKb > budget.sizeKb) out.push(`bundle ${row.sizeKb.toFixed(1)} KB > ${budget.sizeKb} KB`);
  if (row.loadMs > budget.loadMs) out.push(`load ${row.loadMs.toFixed(1)} ms > ${budget.loadMs} ms`);
  return out;
}

/** First-contact functions the manifest does not have (renamed or removed): each one fails the run. */
export function missingFirstContact(names: readonly string[]): string[] {
  return FIRST_CONTACT_FUNCTIONS.filter((name) => !names.includes(name));
}

/** The login route's verdict: not measured (no frontend build) fails like a missing function. */
export function loginProblems(login: { gzipKb: number } | { note: string }): string[] {
  if ('note' in login) return [`login route not measured: ${login.note}`];
  return login.gzipKb > LOGIN_BUDGET_KB ? [`login route ${login.gzipKb.toFixed(1)} KB gzip > ${LOGIN_BUDGET_KB} KB`] : [];
}
