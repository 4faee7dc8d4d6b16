/* global self, caches */
/* AgentDesk service worker (issue 29): the installable app's shell and Web Push.
 *
 * Shell: on install, index.html and the hashed assets it references are cached; a page load
 * (navigation) goes to the network first and falls back to the cached index.html offline; hashed
 * /assets/ files are served from the cache (they never change), other static files (icons, the
 * manifest) from the cache while a fresh copy is fetched. Never cached: /api/ (the user's data),
 * /config.json, anything of another origin, anything but GET.
 *
 * Push: the payload is the JSON the web-push worker encrypts for this device
 * ({title, body, url, tag, notificationId}); it is shown as a notification, one per tag (a
 * repeat replaces it). A click focuses an open AgentDesk window and takes it to `url` (same
 * origin only), or opens one.
 */
const SHELL_CACHE = 'agentdesk-shell-v1';
const STATIC_FILES = ['/', '/index.html', '/manifest.webmanifest', '/favicon.svg', '/icons/icon-192.png', '/icons/badge-96.png'];

const neverCached = (url) => url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname === '/config.json' || url.pathname.startsWith('/_');

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      await cache.addAll(STATIC_FILES);
      // The hashed scripts and styles index.html loads, so the shell starts offline.
      const index = await (await cache.match('/index.html')).text();
      const assets = [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      await cache.addAll([...new Set(assets)]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== SHELL_CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (neverCached(url)) return;

  if (request.mode === 'navigate') {
    event.respondWith(
      (async () => {
        try {
          const fresh = await fetch(request);
          if (fresh.ok) (await caches.open(SHELL_CACHE)).put('/index.html', fresh.clone());
          return fresh;
        } catch {
          return (await caches.match('/index.html')) ?? Response.error();
        }
      })(),
    );
    return;
  }

  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      (async () => {
        const cached = await caches.match(request);
        if (cached) return cached;
        const fresh = await fetch(request);
        if (fresh.ok) (await caches.open(SHELL_CACHE)).put(request, fresh.clone());
        return fresh;
      })(),
    );
    return;
  }

  event.respondWith(
    (async () => {
      const cached = await caches.match(request);
      const refresh = fetch(request)
        .then(async (fresh) => {
          if (fresh.ok) await (await caches.open(SHELL_CACHE)).put(request, fresh.clone());
          return fresh;
        })
        .catch(() => undefined);
      if (cached) {
        event.waitUntil(refresh);
        return cached;
      }
      return (await refresh) ?? Response.error();
    })(),
  );
});

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'AgentDesk';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      icon: '/icons/icon-192.png',
      badge: '/icons/badge-96.png',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      data: { url: typeof data.url === 'string' ? data.url : '/', notificationId: data.notificationId },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  let target = new URL('/', self.location.origin);
  try {
    const url = new URL(event.notification.data?.url ?? '/', self.location.origin);
    if (url.origin === self.location.origin) target = url;
  } catch {
    // keep the app's home
  }
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        await open.navigate(target.href).catch(() => open.postMessage({ type: 'open', url: target.pathname + target.search }));
        return;
      }
      await self.clients.openWindow(target.href);
    })(),
  );
});
