import fs from 'node:fs';
import path from 'node:path';

// The single-page app's page, per address (issue 25). Every address gets web/dist/index.html; for
// the routes the build lists in route-preloads.json (scripts/vite/route-preloads.ts) the page also
// names that screen's chunks, stylesheets and first API answers, so a phone fetches them in
// parallel with the entry instead of one after another.

type RoutePreloads = Record<string, { scripts?: string[]; styles?: string[]; fetches?: string[] }>;

const ROUTE_PRELOADS_FILE = 'route-preloads.json';

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

const links = (rel: string, hrefs: string[] = []) => hrefs.map((href) => `<link ${rel} crossorigin href="${escapeAttribute(href)}">`);

/**
 * index.html with one route's preloads (crossorigin on all: module scripts and fetch() are
 * CORS-mode requests, and a preload is only used by a request of the same mode). The API answers
 * go first in <head>: over HTTP/1.1 the browser fetches 6 files at a time, and the small answers
 * queued behind the scripts arrived last and held the form back.
 */
export function withPreloads(indexHtml: string, { scripts, styles, fetches }: RoutePreloads[string]): string {
  const first = links('rel="preload" as="fetch"', fetches);
  const last = [...links('rel="modulepreload"', scripts), ...links('rel="preload" as="style"', styles)];
  return indexHtml
    .replace(/<meta charset[^>]*>(\s*)/i, (meta, space: string) => meta + first.map((link) => link + space).join(''))
    .replace(/(\s*)<\/head>/, (end, space: string) => last.map((link) => space + link).join('') + end);
}

/** The page for a request URL: index.html, with the route's preloads when the build listed some. */
export function indexPages(webDist: string): (url: string) => string {
  const indexHtml = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
  const file = path.join(webDist, ROUTE_PRELOADS_FILE);
  const routes: RoutePreloads = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as RoutePreloads) : {};
  const pages = new Map(
    Object.entries(routes).map(([route, preloads]) => [route, withPreloads(indexHtml, preloads)]),
  );
  return (url) => {
    const pathname = url.split(/[?#]/)[0]!.replace(/(.)\/+$/, '$1');
    return pages.get(pathname) ?? indexHtml;
  };
}
