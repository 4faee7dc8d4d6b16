/**
 * `npm run bench`: for every Lambda function (route groups, workers, WebSocket APIs, Cognito triggers) the
 * minified bundle size and the cold module-load time, built with the SAME esbuild settings
 * as the stack (infra/lib/bundling.ts); then the login route's initial JavaScript (gzip).
 * Each figure is printed beside its budget (bench-budgets.ts); the run exits 1 when any figure is
 * over its budget or could not be measured (a missing entry, a failed build, no frontend build),
 * so `npm run bench` (bench-all.ts, which reads the exit code) no longer reports "targets met".
 * Load times depend on the machine's load; the module count and the bytes do not: compare those
 * when the load column looks noisy.
 *
 *   --no-build   do not build the frontend when frontend/dist is missing
 *   --runs=N     module-load samples per function (median reported; default 5)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import * as esbuild from 'esbuild';
import { apiAuthorizer, cognitoTriggers, preTokenTrigger, routeGroups, socketApis, workers } from '../../functions/src/routes.js';
import { esbuildOptions, functionsDir, repoRoot } from '../lib/bundling.js';
import { budgetOf, LOGIN_BUDGET_KB, loginProblems, missingFirstContact, problems, type FnKind } from './bench-budgets.js';

const LOGIN_PAGE = 'src/features/auth/LoginPage.tsx';

const args = process.argv.slice(2);
const runs = Number(args.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 5);
const allowBuild = !args.includes('--no-build');

/** What a deployed function sees (names from functions/src/config.ts), so config() parses at import. */
const lambdaEnv: Record<string, string> = {
  AWS_REGION: 'us-east-1',
  AWS_LAMBDA_FUNCTION_NAME: 'bench',
  NODE_OPTIONS: '--enable-source-maps',
  APP_URL: 'https://d111111abcdef8.cloudfront.net',
  TABLE_NAME: 'agentdesk-bench',
  UPLOADS_BUCKET: 'agentdesk-bench-uploads',
  USER_POOL_ID: 'us-east-1_bench',
  USER_POOL_CLIENT_ID: 'benchclient',
  QUEUE_URL_URL_SCRAPE: 'https://sqs.us-east-1.amazonaws.com/123456789012/url-scrape',
  QUEUE_URL_FILE_INGEST: 'https://sqs.us-east-1.amazonaws.com/123456789012/file-ingest',
  QUEUE_URL_WHATSAPP_INBOUND: 'https://sqs.us-east-1.amazonaws.com/123456789012/whatsapp-inbound',
  QUEUE_URL_CALL_SUMMARY: 'https://sqs.us-east-1.amazonaws.com/123456789012/call-summary',
  VOICE_RELAY_URL: 'wss://abcdef1234.execute-api.us-east-1.amazonaws.com/live',
  VOICE_RELAY_CONNECTIONS_URL: 'https://abcdef1234.execute-api.us-east-1.amazonaws.com/live',
  VOICE_RELAY_FUNCTION: 'AgentDesk-SocketsvoicerelayFn-bench',
  SECRETS_KEY_ID: 'arn:aws:kms:us-east-1:123456789012:key/bench',
  MAIL_FROM: 'AgentDesk <no-reply@example.com>',
  GOOGLE_CLIENT_ID: 'bench.apps.googleusercontent.com',
  WHATSAPP_USER_IDS: '',
  LOG_LEVEL: 'ERROR',
  RUNTIME: 'aws',
};

interface FnRow {
  kind: FnKind;
  name: string;
  entry: string;
  sizeKb?: number;
  /** Modules in the bundle: a count that does not depend on the machine's load. */
  modules?: number;
  loadMs?: number;
  topInputs?: string[];
  error?: string;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const mark = (ok: boolean) => (ok ? '✓' : '✗');
const kb = (bytes: number) => bytes / 1024;

function loadTimeMs(file: string): number {
  const code = `const t=performance.now();await import(${JSON.stringify(pathToFileURL(file).href)});console.log(performance.now()-t);`;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const env = { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), ...lambdaEnv };
    // NODE_OPTIONS as deployed: source-map support is part of the real load cost.
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', code], { env, encoding: 'utf8', cwd: path.dirname(file) });
    if (out.status !== 0) throw new Error((out.stderr || out.stdout).trim().split('\n').slice(-3).join(' | '));
    samples.push(Number(out.stdout.trim().split('\n').pop()));
  }
  return median(samples);
}

/** Largest inputs of a bundle, grouped by package, for over-budget rows. */
function topInputs(meta: esbuild.Metafile, count = 4): string[] {
  const byPkg = new Map<string, number>();
  for (const output of Object.values(meta.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      const key = m?.[1] ?? 'functions/src';
      byPkg.set(key, (byPkg.get(key) ?? 0) + bytesInOutput);
    }
  }
  return [...byPkg.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([pkg, bytes]) => `${pkg} ${kb(bytes).toFixed(0)}`);
}

async function benchFunctions(outDir: string): Promise<FnRow[]> {
  const targets: FnRow[] = [
    ...Object.entries(routeGroups).map(([name, g]): FnRow => ({ kind: 'api', name, entry: g.entry })),
    ...Object.entries(workers).map(([name, w]): FnRow => ({ kind: 'worker', name, entry: w.entry })),
    // On a live call's path (its cold start is the caller's silence): held to the API budgets at least.
    ...Object.entries(socketApis).map(([name, w]): FnRow => ({ kind: 'socket', name, entry: w.entry })),
    { kind: 'trigger', name: 'cognito custom-auth (x3)', entry: cognitoTriggers.entry },
    // Issue 32: on every sign-in and refresh.
    { kind: 'trigger', name: 'cognito pre-token-generation', entry: preTokenTrigger.entry },
    // In front of every public API request: held to the API budget.
    { kind: 'api', name: 'api-authorizer', entry: apiAuthorizer.entry },
  ];
  // A first-contact function renamed away from its budget must not pass unmeasured.
  for (const name of missingFirstContact(targets.map((t) => t.name))) {
    targets.push({ kind: 'api', name, entry: '-', error: 'MISSING from the manifest (first-contact budget)' });
  }
  for (const row of targets) {
    if (row.error) continue;
    const entry = path.join(functionsDir, row.entry);
    if (!fs.existsSync(entry)) {
      row.error = 'MISSING entry (not written yet)';
      continue;
    }
    const outfile = path.join(outDir, row.kind, row.name.replace(/\W+/g, '-'), 'index.mjs');
    try {
      const result = await esbuild.build({ ...esbuildOptions(entry, outfile), metafile: true, absWorkingDir: repoRoot });
      row.sizeKb = kb(fs.statSync(outfile).size);
      row.modules = Object.keys(result.metafile.inputs).length;
      if (row.sizeKb > budgetOf(row).sizeKb) row.topInputs = topInputs(result.metafile);
      row.loadMs = loadTimeMs(outfile);
    } catch (error) {
      row.error = `FAILED: ${(error as Error).message.split('\n')[0]}`;
    }
  }
  return targets;
}

interface ViteChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}

function loginRouteJs(): { files: string[]; gzipKb: number } | { note: string } {
  const dist = path.join(repoRoot, 'frontend', 'dist');
  const manifestFile = path.join(dist, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) {
    if (!allowBuild) return { note: 'frontend/dist/.vite/manifest.json missing (run `npm run build -w frontend`)' };
    console.log('frontend/dist/.vite/manifest.json missing: building the frontend (npm run build -w frontend)...');
    try {
      execFileSync('npm', ['run', 'build', '-w', 'frontend'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
    } catch {
      return { note: 'frontend build failed; login route not measured' };
    }
    if (!fs.existsSync(manifestFile)) {
      return { note: 'no frontend/dist/.vite/manifest.json after the build (is build.manifest enabled in frontend/vite.config.ts?)' };
    }
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ViteChunk>;
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!entryKey) return { note: 'no entry chunk in the Vite manifest' };
  const loginKey = Object.keys(manifest).find((k) => k === LOGIN_PAGE || manifest[k]?.src === LOGIN_PAGE);
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imp of chunk.imports ?? []) visit(imp);
  };
  visit(entryKey);
  if (loginKey) visit(loginKey);
  const js = [...files].filter((f) => f.endsWith('.js'));
  const gzip = js.reduce((sum, f) => sum + zlib.gzipSync(fs.readFileSync(path.join(dist, f))).length, 0);
  const result = { files: js, gzipKb: kb(gzip) };
  if (!loginKey) return { ...result, files: [...js, `(note: ${LOGIN_PAGE} not found as its own chunk: is it lazy-loaded?)`] };
  return result;
}

function table(headers: string[], rows: string[][], rightAlign: number[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => [...(r[i] ?? '')].length)));
  const cell = (text: string, i: number) => {
    const pad = ' '.repeat(widths[i]! - [...text].length);
    return rightAlign.includes(i) ? pad + text : text + pad;
  };
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentdesk-bench-'));
try {
  const load = os.loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(`Lambda bundles (esbuild settings from infra/lib/bundling.ts; load = median of ${runs} fresh node ${process.version} processes, import only)`);
  console.log(`Machine: ${os.cpus().length} CPU(s), load average ${load}${os.loadavg()[0]! > os.cpus().length ? ' (busy: load times are inflated)' : ''}\n`);
  const rows = await benchFunctions(outDir);
  const budgetText = (value: number) => (Number.isFinite(value) ? `≤${value}` : 'no budget');
  console.log(
    table(
      ['kind', 'function', 'entry', 'bundle KB', 'budget', 'modules', 'load ms', 'budget'],
      rows.map((r) => {
        const budget = budgetOf(r);
        if (r.error || r.sizeKb === undefined || r.loadMs === undefined) {
          return [r.kind, r.name, r.entry, `${r.error ?? 'not measured'} ✗`, budgetText(budget.sizeKb), '', '', budgetText(budget.loadMs)];
        }
        return [
          r.kind,
          r.name,
          r.entry,
          `${r.sizeKb.toFixed(1)} ${Number.isFinite(budget.sizeKb) ? mark(r.sizeKb <= budget.sizeKb) : '·'}`,
          budgetText(budget.sizeKb),
          String(r.modules ?? ''),
          `${r.loadMs.toFixed(1)} ${mark(r.loadMs <= budget.loadMs)}`,
          budgetText(budget.loadMs),
        ];
      }),
      [3, 4, 5, 6, 7],
    ),
  );
  const heavy = rows.filter((r) => r.topInputs);
  if (heavy.length) {
    console.log('\nLargest contributors (KB in bundle) of over-budget bundles:');
    for (const r of heavy) console.log(`  ${r.kind} ${r.name}: ${r.topInputs!.join(', ')}`);
  }

  console.log('\nFrontend: initial JavaScript of the login route (entry + static imports + LoginPage chunk + its static imports, gzip)\n');
  const login = loginRouteJs();
  if ('note' in login) {
    console.log(`  ${login.note} ✗`);
  } else {
    console.log(
      table(
        ['route', 'files', 'gzip KB', 'budget'],
        [['/login', String(login.files.filter((f) => !f.startsWith('(')).length), `${login.gzipKb.toFixed(1)} ${mark(login.gzipKb <= LOGIN_BUDGET_KB)}`, `≤${LOGIN_BUDGET_KB}`]],
        [1, 2, 3],
      ),
    );
    for (const f of login.files) console.log(`  ${f}`);
  }

  const failed = rows.flatMap((r) => problems(r).map((p) => `${r.kind} ${r.name}: ${p}`));
  const loginFailed = loginProblems(login);
  if (failed.length === 0 && loginFailed.length === 0) {
    console.log('\nAll budgets met.');
  } else {
    const functions = new Set(rows.filter((r) => problems(r).length > 0).map((r) => r.name)).size;
    console.log(`\nOver budget or missing: ${functions} function(s)${loginFailed.length ? ' + login route' : ''}:`);
    for (const line of [...failed, ...loginFailed]) console.log(`  ✗ ${line}`);
    // bench-all.ts reports a bench by its exit code: a missed budget fails the run.
    process.exitCode = 1;
  }
} finally {
  fs.rmSync(outDir, { recursive: true, force: true });
}
