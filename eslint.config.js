import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import fs from 'node:fs';

// Boundaries (issue 8): domain/ stands alone; server/ and web/ never import each other; a web
// feature uses another feature only through its public surface — `api/` (data) and `hooks/` —
// never its components, routes or utils (shared UI lives in web/components or web/app).
const FEATURES = fs.readdirSync('web/features', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const PUBLIC_SURFACE = ['api', 'hooks'];
const featureZones = FEATURES.map((feature) => ({
  target: `./web/features/${feature}`,
  from: './web/features',
  except: [`./${feature}`, ...FEATURES.filter((other) => other !== feature).flatMap((other) => PUBLIC_SURFACE.map((dir) => `./${other}/${dir}`))],
  message: 'Use another feature only through its api/ or hooks/; move shared UI to web/components or web/app.',
}));

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
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './domain', from: ['./server', './web'], message: 'domain/ is shared: it imports neither server/ nor web/.' },
            { target: './web', from: './server', message: 'The web app talks to the server over HTTP only.' },
            { target: './server', from: './web', message: 'The server never imports web code.' },
            ...featureZones,
          ],
        },
      ],
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
