import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { directImports } from './scripts/vite/direct-imports';
import { i18nCatalogues } from './scripts/vite/i18n-catalogues';
import { PUBLIC_ROUTE_MODULES, publicRouteChunks } from './scripts/vite/route-chunks';
import { routePreloads } from './scripts/vite/route-preloads';

// The web app lives in web/; the API server (server/) serves web/dist in production
// and proxies to Vite in development (npm run dev).

/**
 * Writes a .br and a .gz beside every text asset once the bundle is written, so the server sends
 * them as they are (@fastify/static preCompressed) instead of compressing on every request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'baywise-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const walk = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
          const full = path.join(dir, entry.name);
          return entry.isDirectory() ? walk(full) : [full];
        });
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json|txt|map|wasm)$/.test(file)) continue;
        const body = fs.readFileSync(file);
        if (body.length < 1024) continue;
        fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
      }
    },
  };
}

/** Libraries in chunks of their own: cached across releases, and admin-only ones never in the portal. */
function vendorChunk(id: string): string | undefined {
  if (!id.includes('node_modules')) return undefined;
  // Preact, the router, the query cache and Mantine's engine: every screen needs all four, so one
  // file, not four (issue 25: on HTTP/1.1 a phone fetches 6 files at a time, each a round trip).
  if (/node_modules\/(preact|react|react-dom|scheduler)\//.test(id)) return 'vendor';
  if (/node_modules\/(react-router)\//.test(id)) return 'vendor';
  // Not @mantine/charts: a manual chunk takes its unassigned imports along, and it imports Group, Text and
  // Paper from @mantine/core, which every page then loaded from the charts chunk.
  if (/node_modules\/(recharts|d3-[^/]+|victory-vendor)\//.test(id)) return 'vendor-charts';
  // Helpers the charts share with form widgets and notifications (Textarea’s autosize, the toasts): else they ride in
  // the charts chunk and the booking form downloads the charts.
  if (/node_modules\/(@babel\/runtime|prop-types|react-is|object-assign|react-transition-group|dom-helpers)\//.test(id)) return 'vendor-helpers';
  if (/node_modules\/zod\//.test(id)) return 'vendor-zod';
  if (/node_modules\/@tanstack\//.test(id)) return 'vendor';
  // Mantine's theme engine and hooks, which every screen needs: left to the bundler they share a
  // chunk with whatever else has the same importers (the popover engine), and drag it along.
  if (/node_modules\/(@mantine\/hooks\/|@mantine\/core\/esm\/core\/|clsx\/)/.test(id)) return 'vendor';
  return undefined;
}

/**
 * React's API on Preact (decision 007): the same components and libraries at a tenth of
 * react-dom's weight, so the public pages stay light.
 */
const preactCompat = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
];

const repoRoot = path.dirname(fileURLToPath(import.meta.url));
const publicChunk = publicRouteChunks(repoRoot);

/**
 * What the server preloads in the page it sends for these addresses (issue 25): the booking
 * form's code and the two answers its loader asks for (web/app/router.tsx), in parallel with the
 * entry instead of after it.
 */
const ROUTE_PRELOADS = {
  '/book/request': {
    modules: ['web/app/layouts/public-layout.tsx', ...PUBLIC_ROUTE_MODULES],
    fetches: ['/api/public/organizations', '/api/public/booking-info'],
  },
};

export default defineConfig({
  root: 'web',
  plugins: [react(), i18nCatalogues(repoRoot), directImports(), routePreloads(repoRoot, ROUTE_PRELOADS), precompress()],
  resolve: { alias: preactCompat },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: { output: { manualChunks: (id, meta) => vendorChunk(id) ?? publicChunk(id, meta) } },
  },
  server: {
    proxy: {
      '/api': { target: 'http://localhost:3000', ws: true },
      '/ocr': { target: 'http://localhost:3000' },
    },
  },
});
