import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The booking request form and the app's frame load only the Mantine styles imported in
// providers.tsx (issue 25; router.tsx's lightScreen). A Mantine component used there without its
// stylesheet would show unstyled on a haulier's first visit: this test follows the static imports
// of those screens and fails on any Mantine component whose stylesheet is not imported.

const webDir = path.resolve(import.meta.dirname, '..');
const mantineStyles = path.resolve(webDir, '../node_modules/@mantine/core/styles');
const LIGHT_ENTRIES = ['main.tsx', 'app/layouts/public-layout.tsx', 'features/public-booking/routes/booking-request-page.tsx'];

/** The files reached from `entries` by static imports (not `import()`), inside web/. */
function staticClosure(entries: string[]): string[] {
  const seen = new Set<string>();
  const queue = entries.map((entry) => path.join(webDir, entry));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = fs.readFileSync(file, 'utf8');
    for (const [, specifier] of source.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)) {
      const base = path.resolve(path.dirname(file), specifier!);
      const resolved = ['', '.tsx', '.ts', '/index.ts', '/index.tsx'].map((ext) => base + ext).find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
      if (resolved && resolved.startsWith(webDir) && /\.tsx?$/.test(resolved) && !resolved.endsWith('.test.tsx')) queue.push(resolved);
    }
  }
  return [...seen];
}

/** Mantine components a file imports as values (`Radio` also stands for `Radio.Group`). */
function mantineComponents(file: string): string[] {
  const source = fs.readFileSync(file, 'utf8');
  return [...source.matchAll(/^import\s+\{([^}]*)\}\s+from\s+'@mantine\/core'/gm)].flatMap(([, names]) =>
    names!
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name && !name.startsWith('type ') && /^[A-Z]/.test(name)),
  );
}

describe('the light screens’ styles', () => {
  const providers = fs.readFileSync(path.join(webDir, 'app/providers.tsx'), 'utf8');
  const imported = new Set([...providers.matchAll(/@mantine\/core\/styles\/([A-Za-z-]+)\.layer\.css/g)].map(([, name]) => name));

  it('imports the stylesheet of every Mantine component the form and the frame use', () => {
    const files = staticClosure(LIGHT_ENTRIES);
    expect(files.length).toBeGreaterThan(20);
    const missing = files.flatMap((file) =>
      mantineComponents(file)
        .filter((component) => fs.existsSync(path.join(mantineStyles, `${component}.css`)) && !imported.has(component))
        .map((component) => `${component} (${path.relative(webDir, file)})`),
    );
    expect(missing).toEqual([]);
  });

  it('imports only stylesheets that exist, Mantine’s base ones first', () => {
    for (const name of imported) expect(fs.existsSync(path.join(mantineStyles, `${name}.layer.css`)), name).toBe(true);
    expect([...imported].slice(0, 3)).toEqual(['baseline', 'default-css-variables', 'global']);
  });

  it('keeps the form and the portal frame light, and loads the rest with every other screen', () => {
    const router = fs.readFileSync(path.join(webDir, 'app/router.tsx'), 'utf8');
    expect(router).toMatch(/lazy: lightScreen\(\(\) => import\('..\/features\/public-booking\/routes\/booking-request-page'\)\)/);
    expect(router).toMatch(/lazy: lightNamed\(\(\) => import\('.\/layouts\/public-layout'\), 'PublicLayout'\)/);
    expect(router.match(/lazy: light(Screen|Named)\(/g)).toHaveLength(2);
    expect(providers).not.toMatch(/@mantine\/core\/styles(\.layer)?\.css/);
  });
});
