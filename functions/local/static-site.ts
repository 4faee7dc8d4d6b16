/**
 * Serves the built SPA the way CloudFront + S3 do in AWS: files from the dist folder,
 * index.html for any other path (client-side routing), long caching for hashed assets and
 * no caching for index.html so a new build is picked up on reload.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>AgentDesk: frontend not built</title>
<body style="font-family:system-ui;max-width:40rem;margin:4rem auto">
<h1>The frontend is not built</h1>
<p>Run <code>npm run build -w frontend</code> (or use <code>npm start</code>, which builds it first, or
<code>npm run dev</code> for hot reload), then reload this page.</p>
<p>The API is up at <code>/api/…</code>.</p></body>`;

function sendFile(req: IncomingMessage, res: ServerResponse, file: string, cacheControl: string): void {
  const size = statSync(file).size;
  res.writeHead(200, {
    'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': String(size),
    'cache-control': cacheControl,
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}

export function serveStatic(req: IncomingMessage, res: ServerResponse, rootDir: string): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  const index = join(rootDir, 'index.html');
  if (!existsSync(index)) {
    res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(NOT_BUILT);
    return;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://local').pathname);
  } catch {
    res.writeHead(400).end();
    return;
  }
  const file = normalize(join(rootDir, pathname));
  // Never serve outside the dist folder (../ tricks).
  const inside = file === rootDir || file.startsWith(rootDir.endsWith(sep) ? rootDir : rootDir + sep);
  if (inside && existsSync(file) && statSync(file).isFile()) {
    const hashed = pathname.startsWith('/assets/');
    const cache = hashed ? 'public, max-age=31536000, immutable' : file === index ? 'no-cache' : 'public, max-age=300';
    sendFile(req, res, file, cache);
    return;
  }
  // A missing asset is a real 404; any other path is a client-side route.
  if (pathname.startsWith('/assets/') || extname(pathname) !== '') {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found');
    return;
  }
  sendFile(req, res, index, 'no-cache');
}
