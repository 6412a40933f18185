import path from 'node:path';
import type { Rollup } from 'vite';

type ManualChunkMeta = Rollup.ManualChunkMeta;

// Issue 25: the public booking form arrived in ~49 files. Over HTTP/1.1 a browser opens 6
// connections to a host, so on a phone's network (150 ms a round trip) 49 small files cost ~8
// round trips of latency before the form could render. Left to itself the bundler makes a chunk
// per set of importers (each Mantine component, each icon of the form alone). Here the modules
// of the booking form's screen go into two chunks instead:
//   - `public`: what only the form uses (the form, its widgets);
//   - `public-common`: the portal's layout and what the form shares with the portal's other
//     pages (/, /book, help, terms: Button, Card, Alert, icons), which load this chunk and not
//     the form's widgets;
//   - `public-shared`: what they share with signed-in screens only (Checkbox, Radio, the form
//     state), so a screen that needs a Checkbox loads this chunk, never the booking form's code.
// The portal's other pages (help, terms, the site list) keep the bundler's chunks: grouping them
// too would make the form download their tables.
//   - `app`: the entry's own closure (providers, router, auth), named too: a manual chunk takes
//     every unnamed module it imports along, so left unnamed they would have been pulled into
//     `public-shared` and every screen, signed in or not, would have loaded the booking form.
// Everything else (the signed-in screens) is left to the bundler.

/** The booking form's screen (a dynamic import of web/app/router.tsx, relative to the repo). */
export const PUBLIC_ROUTE_MODULES = ['web/features/public-booking/routes/booking-request-page.tsx'];
/** The portal's layout: every /book page loads it, so its code goes to `public-common` whole. */
const PORTAL_LAYOUT = 'web/app/layouts/public-layout.tsx';
/** The portal's other pages (see `public-common`). */
const PORTAL_ROUTE_MODULES = [
  'web/features/landing/routes/landing-page.tsx',
  'web/features/public-booking/routes/book-landing-page.tsx',
  'web/features/public-booking/routes/booking-help-page.tsx',
  'web/features/public-booking/routes/booking-terms-page.tsx',
];

const ENTRY = '\0entry';

/**
 * The roots each module is reached from: the app's entry, or the dynamically imported modules
 * (the lazy screens and the parts they load on demand) whose static imports lead to it. Computed
 * once for the whole graph (it is complete when manualChunks is first called).
 */
function rootsOfEveryModule(meta: ManualChunkMeta): Map<string, Set<string>> {
  const roots = new Map<string, Set<string>>();
  const ids = [...meta.getModuleIds()];
  for (const id of ids) {
    const info = meta.getModuleInfo(id);
    if (!info || !(info.isEntry || info.dynamicImporters.length > 0)) continue;
    const root = info.isEntry ? ENTRY : id;
    const queue = [id];
    const seen = new Set(queue);
    while (queue.length > 0) {
      const current = queue.pop()!;
      (roots.get(current) ?? roots.set(current, new Set()).get(current)!).add(root);
      for (const imported of meta.getModuleInfo(current)?.importedIds ?? []) {
        if (!seen.has(imported)) {
          seen.add(imported);
          queue.push(imported);
        }
      }
    }
  }
  return roots;
}

/** A manualChunks rule: `app`, `public`, `public-common`, `public-shared` or undefined (see the header). */
export function publicRouteChunks(root: string): (id: string, meta: ManualChunkMeta) => string | undefined {
  const publicRoots = new Set(PUBLIC_ROUTE_MODULES.map((file) => path.resolve(root, file)));
  const portalRoots = new Set(PORTAL_ROUTE_MODULES.map((file) => path.resolve(root, file)));
  const portalLayout = path.resolve(root, PORTAL_LAYOUT);
  let rootsOf: Map<string, Set<string>> | undefined;
  return (id, meta) => {
    if (id.startsWith('\0') || !/\.(m?[jt]sx?)$/.test(id)) return undefined;
    rootsOf ??= rootsOfEveryModule(meta);
    const roots = rootsOf.get(id) ?? new Set<string>();
    if (roots.has(ENTRY)) return meta.getModuleInfo(id)?.isEntry ? undefined : 'app';
    if (roots.has(portalLayout)) return 'public-common';
    if (roots.size === 0) return undefined;
    const fromPublic = [...roots].filter((r) => publicRoots.has(r)).length;
    if (fromPublic === 0) return undefined;
    if (fromPublic === roots.size) return 'public';
    return [...roots].some((r) => portalRoots.has(r)) ? 'public-common' : 'public-shared';
  };
}
