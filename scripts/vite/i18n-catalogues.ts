import fs from 'node:fs';
import path from 'node:path';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';

// Decision 046: the web's catalogues, compiled when the bundle is built. `virtual:i18n-catalogue/<lang>`
// is one module per language holding every web namespace of domain/i18n/<namespace>/<lang>.json, each
// ICU message already parsed by Lingui's compiler into its token array, so no message parser ships to
// the browser. A language's module is imported on demand (web/i18n/catalogues.ts), one chunk each.

const PREFIX = 'virtual:i18n-catalogue/';
const RESOLVED = '\0i18n-catalogue:';
/** Server-only namespaces (the e-mails to hauliers, the standing-booking mails), never sent to the browser. */
const SERVER_ONLY_NAMESPACES = new Set(['mail', 'standing']);

/** Every web namespace's messages for `language`, compiled, keyed `<namespace>.<key>`. */
export function compiledCatalogue(i18nDir: string, language: string): { messages: Record<string, unknown>; files: string[] } {
  const messages: Record<string, unknown> = {};
  const files: string[] = [];
  const namespaces = fs.existsSync(i18nDir)
    ? fs.readdirSync(i18nDir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
    : [];
  for (const namespace of namespaces.sort()) {
    if (SERVER_ONLY_NAMESPACES.has(namespace)) continue;
    const file = path.join(i18nDir, namespace, `${language}.json`);
    if (!fs.existsSync(file)) continue;
    files.push(file);
    const catalogue = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    for (const [key, message] of Object.entries(catalogue)) {
      try {
        // Always the token array, even for plain text: Lingui would take a string for an uncompiled
        // message (and warn, as the browser has no compiler).
        messages[`${namespace}.${key}`] = compileMessageOrThrow(message);
      } catch (error) {
        throw new Error(`${path.relative(process.cwd(), file)}: "${key}" is not a valid ICU message: ${(error as Error).message}`);
      }
    }
  }
  return { messages, files };
}

export function i18nCatalogues(repoRoot: string): Plugin {
  const i18nDir = path.join(repoRoot, 'domain', 'i18n');
  return {
    name: 'baywise-i18n-catalogues',
    resolveId(id) {
      return id.startsWith(PREFIX) ? RESOLVED + id.slice(PREFIX.length) : undefined;
    },
    load(id) {
      if (!id.startsWith(RESOLVED)) return undefined;
      const language = id.slice(RESOLVED.length);
      const { messages, files } = compiledCatalogue(i18nDir, language);
      for (const file of files) this.addWatchFile(file);
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(messages))});`;
    },
  };
}
