import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from './paths';

export const webRoot = path.join(projectRoot, 'web');
export const webDist = path.join(webRoot, 'dist');
// scripts/vite: the build's own plugins (chunking, preloads) change its output too.
const inputs = [webRoot, path.join(projectRoot, 'domain'), path.join(projectRoot, 'scripts', 'vite')];
const configFiles = ['vite.config.ts', 'package-lock.json', 'postcss.config.cjs'].map((f) =>
  path.join(projectRoot, f),
);

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules' || entry.name.endsWith('.test.ts')) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** True when web/dist is missing or older than any web source, shared domain file or build config. */
export function isWebBuildStale(): boolean {
  const index = path.join(webDist, 'index.html');
  if (!fs.existsSync(index)) return true;
  const built = fs.statSync(index).mtimeMs;
  const sources = Math.max(
    ...inputs.map(newestMtime),
    ...configFiles.filter((f) => fs.existsSync(f)).map((f) => fs.statSync(f).mtimeMs),
  );
  return sources > built;
}

export async function buildWeb(): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: path.join(projectRoot, 'vite.config.ts'), logLevel: 'warn' });
}

export async function ensureWebBuild(log: (message: string) => void): Promise<void> {
  if (!isWebBuildStale()) return;
  log('Building the web app (missing or out of date)...');
  const started = Date.now();
  await buildWeb();
  log(`Web app built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
