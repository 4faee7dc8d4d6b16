import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import { App } from './app/App';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The installable app's service worker (issue 29), in a chunk of its own: not part of the login page's first JavaScript.
void import('./shared/serviceWorker').then(({ registerServiceWorker }) => registerServiceWorker());
