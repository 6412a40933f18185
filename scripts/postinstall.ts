// After `npm install`: build the web app, the server bundle and the migrated embedded-database
// template once, so the first `npm start` is quick. `npm start` redoes whichever is missing or
// stale by itself, so a failure here is reported and not fatal.
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { buildTemplate } from '../server/db/pglite-template';
import { migrationsFolder } from '../server/db/migrate';
import { ensureWebBuild } from '../server/web-build';
import { ensureServerBundle } from './server-bundle.mjs';

const step = async (name: string, run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    console.warn(`[baywise] ${name} skipped:`, (error as Error).message);
  }
};

await step('web build', () => ensureWebBuild((message) => console.log(`[baywise] ${message}`)));
await step('server bundle', () => ensureServerBundle());
await step('database template', () => buildTemplate(migrationsFolder, (pglite) => migrate(drizzle(pglite), { migrationsFolder })));
