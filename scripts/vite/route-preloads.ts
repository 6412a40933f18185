import path from 'node:path';
import type { Plugin, Rollup } from 'vite';

// Issue 25: index.html names the entry's chunks only; a screen's own chunks were asked for once
// the entry had downloaded and run, and its data once the router had matched — three waits in a
// row, each a round trip on a phone's network. For the routes listed here the build writes
// `route-preloads.json` beside index.html: the route's chunks (beyond the entry's), its CSS and
// the API answers it needs first. The server puts them into the page it sends for that address
// as <link rel="modulepreload"> / <link rel="preload">, so they load in parallel with the entry.

/** The file the server reads (server/web-index.ts). */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

export type RoutePreloadConfig = Record<string, { modules: string[]; fetches?: string[] }>;
/** route → the files to preload, as URLs: scripts, stylesheets and API answers. */
export type RoutePreloads = Record<string, { scripts: string[]; styles: string[]; fetches: string[] }>;

type Chunk = Rollup.OutputChunk & { viteMetadata?: { importedCss: Set<string> } };

/** The chunk and its static imports, transitively (what the browser must fetch before it runs). */
function closure(bundle: Rollup.OutputBundle, fileName: string, into: Set<string>): void {
  if (into.has(fileName)) return;
  into.add(fileName);
  const chunk = bundle[fileName];
  if (chunk?.type === 'chunk') for (const imported of chunk.imports) closure(bundle, imported, into);
}

export function routePreloads(root: string, routes: RoutePreloadConfig): Plugin {
  let base = '/';
  return {
    name: 'baywise-route-preloads',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file): file is Chunk => file.type === 'chunk');
      const entryFiles = new Set<string>();
      for (const entry of chunks.filter((chunk) => chunk.isEntry)) closure(bundle, entry.fileName, entryFiles);
      const preloads: RoutePreloads = {};
      for (const [route, { modules, fetches = [] }] of Object.entries(routes)) {
        const files = new Set<string>();
        for (const file of modules) {
          const id = path.resolve(root, file);
          const chunk = chunks.find((c) => c.facadeModuleId === id || c.moduleIds.includes(id));
          if (!chunk) this.error(`route-preloads: ${route}: no chunk holds ${file}`);
          closure(bundle, chunk.fileName, files);
        }
        const scripts = [...files].filter((file) => !entryFiles.has(file));
        const styles = scripts.flatMap((file) => [...((bundle[file] as Chunk).viteMetadata?.importedCss ?? [])]);
        preloads[route] = {
          scripts: scripts.sort().map((file) => base + file),
          styles: [...new Set(styles)].sort().map((file) => base + file),
          fetches,
        };
      }
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: `${JSON.stringify(preloads, null, 2)}\n` });
    },
  };
}
