// Gzip size of the login route's initial JavaScript: the entry chunk, the LoginPage chunk and
// every chunk they import statically (from dist/.vite/manifest.json after `vite build`).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const BUDGET_KB = 250;

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const loginKey = 'src/features/auth/LoginPage.tsx';
if (!entryKey || !manifest[loginKey]) throw new Error('entry or LoginPage chunk missing from the manifest');

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const imp of chunk.imports ?? []) visit(imp);
};
visit(entryKey);
visit(loginKey);

let raw = 0;
let gz = 0;
for (const file of files) {
  const buf = readFileSync(join(dist, file));
  raw += buf.length;
  gz += gzipSync(buf, { level: 9 }).length;
}
const kb = (n) => (n / 1024).toFixed(1);
console.log(`login route initial JS: ${files.size} files, ${kb(raw)} KB raw, ${kb(gz)} KB gzip (budget ${BUDGET_KB} KB)`);
if (gz / 1024 > BUDGET_KB) process.exitCode = 1;
