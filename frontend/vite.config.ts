import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The local runtime (functions/local) sets server.proxy for /api and /config.json when it
// starts Vite in dev mode; nothing here hard-codes a port.
export default defineConfig({
  plugins: [react()],
  build: {
    // A benchmark reads dist/.vite/manifest.json to size the login route's initial JavaScript.
    manifest: true,
    sourcemap: false,
  },
});
