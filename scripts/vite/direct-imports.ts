import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

// Mantine's index re-exports every component. An entry that imports one name from it reaches all
// of them statically, so the bundler files every component that any lazy screen uses (modals,
// drawers, popovers and what they pull in) into the entry chunk: the portal paid for the admin
// screens' overlays. Importing each name from its own file keeps a component in the chunks of
// the screens that use it.

const require = createRequire(import.meta.url);
const EXPORT_LINE = /^export \{([^}]*)\} from '([^']+)';$/gm;
const IMPORT_STATEMENT = /import\s*\{([^}]*)\}\s*from\s*["'](@mantine\/core|@mantine\/hooks|@mantine\/notifications)["'];?/g;

/** name → absolute file (or the package it comes from), from the package's `export { … } from '…'` index. */
function exportMap(pkg: string): Map<string, string> {
  const index = require.resolve(pkg).replace(/cjs\/index\.cjs$/, 'esm/index.mjs');
  const dir = path.dirname(index);
  const map = new Map<string, string>();
  for (const [, names, file] of fs.readFileSync(index, 'utf8').matchAll(EXPORT_LINE)) {
    for (const spec of names!.split(',')) {
      const [exported] = spec.trim().split(/\s+as\s+/).reverse();
      const [original] = spec.trim().split(/\s+as\s+/);
      if (exported) map.set(exported, JSON.stringify({ file: file!.startsWith('.') ? path.join(dir, file!) : file, original }));
    }
  }
  return map;
}

export function directImports(): Plugin {
  const maps = new Map<string, Map<string, string>>();
  const mapFor = (pkg: string) => maps.get(pkg) ?? maps.set(pkg, exportMap(pkg)).get(pkg)!;
  return {
    name: 'baywise-direct-imports',
    apply: 'build',
    enforce: 'post', // after TypeScript and JSX are compiled away: only value imports are left
    transform(code, id) {
      // Our code and Mantine's other packages (notifications, charts) import the index.
      const ours = !id.includes('node_modules');
      const mantineAddOn = /node_modules\/@mantine\/(?!core\/|hooks\/|notifications\/)/.test(id);
      if ((!ours && !mantineAddOn) || !/\.m?[jt]sx?$/.test(id) || !code.includes('@mantine/')) return null;
      let changed = false;
      const out = code.replace(IMPORT_STATEMENT, (statement, names: string, pkg: string) => {
        const map = mapFor(pkg);
        const lines: string[] = [];
        for (const spec of names.split(',').map((s) => s.trim()).filter(Boolean)) {
          const [imported, local = imported] = spec.split(/\s+as\s+/);
          const target = map.get(imported!);
          if (!target) return statement; // not a plain re-export: leave the statement as it was
          const { file, original } = JSON.parse(target) as { file: string; original: string };
          lines.push(`import { ${original} as ${local} } from ${JSON.stringify(file)};`);
        }
        changed = true;
        return lines.join('\n');
      });
      return changed ? { code: out, map: null } : null;
    },
  };
}
