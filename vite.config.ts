import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const api = process.env.THREADLINE_API ?? 'http://127.0.0.1:8787';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: {
    outDir: process.env.THREADLINE_DIST ?? 'dist',
    emptyOutDir: true,
    // Monaco's lazy chunk is large by nature; the first-load budget is checked by scripts/bundle-size.mjs.
    chunkSizeWarningLimit: 5000,
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: { '/v1': api, '/reference': api, '/openapi.json': api },
  },
});
