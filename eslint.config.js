import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const dirsIn = (dir) => fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

// Boundaries (issue 8): domain/ stands alone; server/ and web/ never import each other; a web
// feature uses another feature only through its public surface — `api/` (data) and `hooks/` —
// never its components, routes or utils (shared UI lives in web/components or web/app).
const FEATURES = dirsIn('web/features');
const PUBLIC_SURFACE = ['api', 'hooks'];
const featureZones = FEATURES.map((feature) => ({
  target: `./web/features/${feature}`,
  from: './web/features',
  except: [`./${feature}`, ...FEATURES.filter((other) => other !== feature).flatMap((other) => PUBLIC_SURFACE.map((dir) => `./${other}/${dir}`))],
  message: 'Use another feature only through its api/ or hooks/; move shared UI to web/components or web/app.',
}));

// Shared web code sits below the features (issue 20): web/components and web/lib never import a
// feature or the app shell; web/lib (the API client, query client, realtime) not even components.
const webSharedZones = [
  { target: './web/components', from: ['./web/features', './web/app'], message: 'web/components is shared by features: it never imports a feature or web/app (take what a feature must supply as a prop).' },
  { target: './web/lib', from: ['./web/features', './web/app', './web/components'], message: 'web/lib is the bottom layer of the web app: it imports no feature, component or app code.' },
];

// Server layers (issue 20, docs/architecture.md "Module map"), generated from the folders:
// - a module (server/modules/<name>/) keeps its *.repo.ts to itself: others use its services or a
//   named public file (bookings/booking-records.ts), never its repo;
// - the shared areas (every folder or file under server/ that is neither a module nor the
//   composition below: plugins, auth, audit, delivery, db, mail, realtime, storage, ocr, context,
//   config, platform-config …) never import a module, so no cycle can pass through them;
// - the composition (app.ts, main.ts, startup-modules.ts, dev.ts, mail-renderers.ts, jobs/, test/) wires modules
//   together; nothing but the composition imports it.
// Tests are exempt (a test may read another module's tables to check what a change wrote).
// That modules never import each other in a cycle is checked by scripts/module-graph.mjs.
const MODULES = dirsIn('server/modules');
const COMPOSITION = ['app.ts', 'main.ts', 'startup-modules.ts', 'dev.ts', 'mail-renderers.ts', 'jobs', 'test'];
const SHARED = fs
  .readdirSync(path.join(ROOT, 'server'), { withFileTypes: true })
  .filter((entry) => entry.name !== 'modules' && !COMPOSITION.includes(entry.name) && (entry.isDirectory() || /^[^.]+\.ts$/.test(entry.name)) && !entry.name.endsWith('.test.ts'))
  .map((entry) => entry.name);
const MODULE_REPOS = './server/modules/*/*.repo.ts';
const serverZones = [
  ...MODULES.map((name) => ({
    target: `./server/modules/${name}`,
    from: MODULE_REPOS,
    except: [path.join(ROOT, `server/modules/${name}/*.repo.ts`)],
    message: `Another module's repo is private: use its service (or its public file) instead.`,
  })),
  {
    target: COMPOSITION.map((name) => `./server/${name}`),
    from: MODULE_REPOS,
    message: `A module's repo is private: use its service (or its public file) instead.`,
  },
  {
    target: SHARED.map((name) => `./server/${name}`),
    from: './server/modules',
    message: 'Shared server code (plugins, auth, audit, delivery, db, mail …) never imports a module: move what both need into the shared area.',
  },
  {
    target: ['./server/modules', ...SHARED.map((name) => `./server/${name}`)],
    from: COMPOSITION.map((name) => `./server/${name}`),
    message: 'Only the composition (app.ts, main.ts, jobs/, test/ …) imports the composition: put shared types in context.ts or a shared area.',
  },
];

const baseZones = [
  { target: './domain', from: ['./server', './web'], message: 'domain/ is shared: it imports neither server/ nor web/.' },
  { target: './web', from: './server', message: 'The web app talks to the server over HTTP only.' },
  { target: './server', from: './web', message: 'The server never imports web code.' },
  ...featureZones,
  ...webSharedZones,
];

export default tseslint.config(
  { ignores: ['node_modules', 'web/dist', 'data', 'test-results', 'playwright-report', 'server/db/migrations', 'e2e/.data'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'server/**/*.ts', 'domain/**/*.ts'],
    plugins: { 'import-x': importX },
    // Without the TypeScript extensions and parser, no-cycle cannot follow a .ts import and stays silent.
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver()],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: baseZones }],
    },
  },
  {
    files: ['server/**/*.ts'],
    ignores: ['server/**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: [...baseZones, ...serverZones] }],
    },
  },
  {
    // The web takes the API contract's TYPES only (docs/decisions/026-typed-api-contract.md): a value
    // import would put every route's zod schemas into the bundles.
    files: ['web/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/domain/api-contract', '**/domain/contract/*'],
              allowTypeImports: true,
              message: 'Import the API contract with `import type` only (web/lib/api-client.ts calls it).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-console': 'off',
    },
  },
);
