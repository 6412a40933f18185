import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../domain/languages';
import { projectRoot } from '../../paths';
import { translate } from '../../i18n/translate';

// The `account` catalogues (issue 27's i18n contract): every key of en.json is in de, pl and fr,
// no language has a key English lacks, placeholders match, and every key the account screens and
// the sign-in mail use exists.

const read = (language: string) => JSON.parse(fs.readFileSync(path.join(projectRoot, 'domain/i18n/account', `${language}.json`), 'utf8')) as Record<string, string>;
const placeholders = (message: string) => [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('the account catalogues', () => {
  const en = read('en');

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has exactly the English keys, with the same placeholders', (language) => {
    const other = read(language);
    expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en)) expect(placeholders(other[key]!), `${language} ${key}`).toEqual(placeholders(en[key]!));
  });

  it('has every key the screens and the mail use', () => {
    const dirs = ['web/features/haulier-account', 'server/modules/haulier-accounts'].map((d) => path.join(projectRoot, d));
    const used = new Set<string>();
    for (const file of dirs.flatMap(sourceFiles)) {
      for (const match of fs.readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([a-zA-Z]+\.[\w.]+)'/g)) used.add(match[1]!);
    }
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((key) => !(key in en))).toEqual([]);
  });

  it('fills placeholders in the chosen language', () => {
    expect(translate('pl', 'account', 'mail.signIn.validity', { minutes: 15 })).toBe('Link działa jednorazowo przez 15 minut.');
    expect(translate('de', 'account', 'page.signedInAs', { email: 'a@b.example' })).toBe('Angemeldet als a@b.example');
  });
});
