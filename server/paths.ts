import fs from 'node:fs';
import path from 'node:path';

/**
 * The project's root folder (where package.json is), found from this module's own location so it
 * holds both when the server runs from source (tsx) and from its bundle (.cache/server/).
 */
function findProjectRoot(from: string): string {
  let dir = from;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${from}`);
    dir = parent;
  }
  return dir;
}

export const projectRoot = findProjectRoot(import.meta.dirname);
/** Build artefacts that are not committed: the server bundle and the embedded-database template. */
export const cacheDir = path.join(projectRoot, 'node_modules', '.cache', 'baywise');
