/**
 * The installable app (issue 29): the service worker (public/sw.js: the app shell offline, Web
 * Push) is registered in production builds only — in `vite dev` it would cache modules that
 * change on every save. Tiny on purpose: main.tsx loads it on every page, the login page too.
 */
export const SERVICE_WORKER_URL = '/sw.js';

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch(() => {
      // No shell offline and no push on this browser; the app itself works as before.
    });
  };
  // A notification clicked while this window was not yet controlled by the worker: it asks the page to open the link (same origin only).
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string; url?: unknown }>) => {
    const url = event.data?.url;
    if (event.data?.type === 'open' && typeof url === 'string' && url.startsWith('/') && !url.startsWith('//')) window.location.assign(url);
  });
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

