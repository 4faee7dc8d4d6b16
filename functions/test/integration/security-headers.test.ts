/**
 * The local gateway sends the security headers CloudFront adds in AWS (issue 14, finding 10),
 * from the same definitions (src/http/security-headers.ts): the site's CSP, HSTS, nosniff and
 * no framing on the app, `default-src 'none'` on every API answer, JSON or not, error or not.
 */
import { copyFileSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../local/gateway.js';
import { API_CONTENT_SECURITY_POLICY, siteContentSecurityPolicy } from '../../src/http/security-headers.js';
import { provided } from '../support/api.js';

const base = () => provided('apiUrl');

function expectApiHeaders(headers: Headers, label: string) {
  expect(headers.get('content-security-policy'), label).toBe(API_CONTENT_SECURITY_POLICY);
  expect(headers.get('strict-transport-security'), label).toBe('max-age=63072000; includeSubDomains');
  expect(headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(headers.get('x-frame-options'), label).toBe('DENY');
  expect(headers.get('referrer-policy'), label).toBe('no-referrer');
}

function expectSiteHeaders(headers: Headers, uploadsOrigin: string, label: string) {
  const csp = headers.get('content-security-policy') ?? '';
  expect(csp, label).toBe(siteContentSecurityPolicy({ uploads: [uploadsOrigin] }));
  expect(csp, label).toContain("frame-ancestors 'none'");
  expect(csp, label).toContain("default-src 'self'");
  expect(csp, label).toMatch(new RegExp(`connect-src 'self' ${uploadsOrigin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `));
  // Customers' photos, voice notes and videos play from the bucket's presigned links (issue 31).
  expect(csp, label).toContain(`img-src 'self' data: blob: ${uploadsOrigin};`);
  expect(csp, label).toContain(`media-src 'self' blob: ${uploadsOrigin};`);
  expect(headers.get('strict-transport-security'), label).toBe('max-age=63072000; includeSubDomains');
  expect(headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(headers.get('x-frame-options'), label).toBe('DENY');
  expect(headers.get('referrer-policy'), label).toBe('strict-origin-when-cross-origin');
}

describe('local gateway security headers: the running local stack', () => {
  it('API answers carry them: 401, 4xx validation, 404 and a provider webhook refusal', async () => {
    const answers = await Promise.all([
      fetch(`${base()}/api/me`),
      fetch(`${base()}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"not-an-email"}' }),
      fetch(`${base()}/api/no-such-route`),
      fetch(`${base()}/api/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    ]);

    expect(answers.map((r) => r.status)).toEqual([401, 400, 404, 400]);
    answers.forEach((r, i) => expectApiHeaders(r.headers, `answer ${i}`));
  });

  it('site responses carry the site CSP naming the local S3 endpoint the browser uploads to', async () => {
    // The app's S3 endpoint: the one presigned URLs name (through the fault proxy in the integration stack).
    const s3Origin = new URL(provided('appS3Endpoint')).origin;

    const config = await fetch(`${base()}/config.json`);

    expect(config.status).toBe(200);
    expectSiteHeaders(config.headers, s3Origin, '/config.json');
  });
});

describe('local gateway security headers: the built app', () => {
  let gateway: Gateway;
  let dist: string;
  const uploads = 'http://127.0.0.1:4569';

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'agentdesk-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/index-abc.js"></script>');
    writeFileSync(join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
    gateway = await startGateway({
      port: 0,
      authorizer: { issuer: 'http://127.0.0.1:1/pool', audience: ['client'], keys: createLocalJWKSet({ keys: [] }) },
      loadGroup: () => Promise.reject(new Error('no route groups in this test')),
      frontendDir: dist,
      publicConfig: {},
      siteCspSources: { uploads: [uploads] },
      log: () => undefined,
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  it('index.html, a client-side route, a hashed asset and a missing asset all carry the site headers', async () => {
    const paths = ['/', '/agents/123', '/assets/index-abc.js', '/assets/missing.js'];

    const answers = await Promise.all(paths.map((p) => fetch(`${gateway.url}${p}`)));

    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 404]);
    answers.forEach((r, i) => expectSiteHeaders(r.headers, uploads, paths[i]!));
  });

  it('the installable app (issue 29): the service worker and the web manifest are served as such, under the site headers, and the CSP lets them load', async () => {
    const publicDir = join(import.meta.dirname, '../../../frontend/public');
    copyFileSync(join(publicDir, 'sw.js'), join(dist, 'sw.js'));
    copyFileSync(join(publicDir, 'manifest.webmanifest'), join(dist, 'manifest.webmanifest'));

    const [sw, manifest] = await Promise.all([fetch(`${gateway.url}/sw.js`), fetch(`${gateway.url}/manifest.webmanifest`)]);

    expect([sw.status, manifest.status]).toEqual([200, 200]);
    expect(sw.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(manifest.headers.get('content-type')).toBe('application/manifest+json');
    expectSiteHeaders(sw.headers, uploads, '/sw.js');
    expectSiteHeaders(manifest.headers, uploads, '/manifest.webmanifest');
    // A worker falls back to script-src and a manifest to default-src: both allow our own origin.
    const directives = new Map(siteContentSecurityPolicy({ uploads: [uploads] }).split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives.get('worker-src') ?? directives.get('child-src') ?? directives.get('script-src')).toContain("'self'");
    expect(directives.get('manifest-src') ?? directives.get('default-src')).toContain("'self'");
    const body = (await manifest.json()) as { display: string; icons: { sizes: string; purpose: string }[] };
    expect(body.display).toBe('standalone');
    expect(body.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '192x192 maskable', '512x512 maskable']));
  });

  it('an API route that fails inside the gateway (500) still answers with the API headers', async () => {
    const res = await fetch(`${gateway.url}/api/login`, { method: 'POST', body: '{}' });

    expect(res.status).toBe(500);
    expectApiHeaders(res.headers, '500');
  });
});
