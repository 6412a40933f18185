import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The web app lives in web/; the API server (server/) serves web/dist in production
// and proxies to Vite in development (npm run dev).
export default defineConfig({
  root: 'web',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: {
      '/api': { target: 'http://localhost:3000', ws: true },
    },
  },
});
