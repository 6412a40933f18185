import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { createTestApp, databaseKinds, type TestApp } from './test/harness';
import { indexPages } from './web-index';

// Issue 25: the page sent for /book/request names the booking form's chunks and its first API
// answers (route-preloads.json, written by the build), so a phone fetches them with the entry
// instead of after it; every other address gets index.html as built.

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Baywise</title>
    <script type="module" crossorigin src="/assets/index-B7xQ2f9a.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;
const PRELOADS = {
  '/book/request': {
    scripts: ['/assets/public-Ab12Cd34.js', '/assets/public-shared-Ef56Gh78.js'],
    styles: ['/assets/public-Ij90Kl12.css'],
    fetches: ['/api/public/organizations', '/api/public/booking-info'],
  },
};

function writeDist(withPreloads: boolean): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-dist-'));
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  if (withPreloads) fs.writeFileSync(path.join(dist, 'route-preloads.json'), JSON.stringify(PRELOADS));
  return dist;
}

describe('indexPages', () => {
  const dist = writeDist(true);
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));
  const pageFor = indexPages(dist);

  it('adds the route’s chunks, stylesheets and API answers to its page, the answers first', () => {
    const page = pageFor('/book/request?org=01874273-3bfd-4bbb-9711-3397ccc58bb0');
    expect(page).toContain('<link rel="modulepreload" crossorigin href="/assets/public-Ab12Cd34.js">');
    expect(page).toContain('<link rel="modulepreload" crossorigin href="/assets/public-shared-Ef56Gh78.js">');
    expect(page).toContain('<link rel="preload" as="style" crossorigin href="/assets/public-Ij90Kl12.css">');
    const organizations = page.indexOf('<link rel="preload" as="fetch" crossorigin href="/api/public/organizations">');
    const info = page.indexOf('<link rel="preload" as="fetch" crossorigin href="/api/public/booking-info">');
    expect(organizations).toBeGreaterThan(page.indexOf('<meta charset'));
    expect(info).toBeGreaterThan(organizations);
    // Before the entry's script: over HTTP/1.1 the small answers would otherwise queue behind the scripts.
    expect(info).toBeLessThan(page.indexOf('<script type="module"'));
    expect(page.indexOf('modulepreload')).toBeLessThan(page.indexOf('</head>'));
    expect(pageFor('/book/request/')).toBe(page);
  });

  it('sends every other address index.html as built', () => {
    for (const url of ['/', '/book', '/book/help', '/org/dashboard', '/book/request-other']) expect(pageFor(url)).toBe(INDEX);
  });

  it('serves index.html alone when the build wrote no preloads', () => {
    const bare = writeDist(false);
    try {
      expect(indexPages(bare)('/book/request')).toBe(INDEX);
    } finally {
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });
});

describe.each(databaseKinds)('the app’s pages on %s', (kind) => {
  let t: TestApp;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let dist: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    dist = writeDist(true);
    app = await buildApp(t.ctx, { webDist: dist });
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends /book/request with its preloads and other routes without', async () => {
    const form = await app.inject({ method: 'GET', url: '/book/request?org=x' });
    expect(form.statusCode).toBe(200);
    expect(form.headers['cache-control']).toBe('no-cache');
    expect(form.body).toContain('<link rel="modulepreload" crossorigin href="/assets/public-Ab12Cd34.js">');
    expect(form.body).toContain('<link rel="preload" as="fetch" crossorigin href="/api/public/booking-info">');
    const other = await app.inject({ method: 'GET', url: '/org/dashboard' });
    expect(other.body).toBe(INDEX);
  });
});
