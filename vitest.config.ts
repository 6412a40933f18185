import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { i18nCatalogues } from './scripts/vite/i18n-catalogues';

// Two projects: everything in Node, and the web's component tests (*.test.tsx) in jsdom with
// Testing Library (decision 027). The components run on React here; the production build swaps
// in Preact (decision 007), which the e2e suite covers.
export default defineConfig({
  // The compiled catalogues of the web's texts (decision 046), as the build makes them.
  plugins: [i18nCatalogues(path.dirname(fileURLToPath(import.meta.url)))],
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // PGlite instances are memory-hungry; two cores on CI.
    maxWorkers: 2,
    env: { TZ: 'UTC' },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['domain/**/*.test.ts', 'server/**/*.test.ts', 'web/**/*.test.ts', 'scripts/**/*.test.ts', 'e2e/**/*.test.ts', 'examples/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          include: ['web/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['web/test/setup.ts'],
        },
      },
    ],
  },
});
