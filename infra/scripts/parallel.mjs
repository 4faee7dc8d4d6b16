#!/usr/bin/env node
/**
 * Runs shell commands at the same time and fails when any of them fails:
 *   node infra/scripts/parallel.mjs "tsc -p functions" "eslint ."
 * Each command's output is held and printed whole when it ends (no interleaved lines), with
 * its time, so a failure reads like the command run alone. Used by `npm test` for the checks
 * that are one process each (tsc, eslint): on 2 cores, four of them side by side take about
 * half the time of one after the other.
 */
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: parallel.mjs "<command>" ["<command>" ...]');
  process.exit(2);
}

function run(command) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    const finish = (code, detail) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const text = Buffer.concat(output).toString();
      console.log(`── ${command} ── ${code === 0 ? 'ok' : `failed (${detail})`} in ${seconds} s`);
      if (text.trim()) console.log(text.trimEnd());
      resolve(code === 0);
    };
    child.on('error', (error) => finish(1, error.message));
    child.on('close', (code, signal) => finish(code ?? 1, signal ?? `exit ${code}`));
  });
}

const results = await Promise.all(commands.map(run));
process.exitCode = results.every(Boolean) ? 0 : 1;
