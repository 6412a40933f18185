import { useCallback } from 'react';
import { ENGLISH_MESSAGES } from './catalogues';
import { useT } from './index';

// The shared zod schemas of domain/ (and the server's refusals) speak the spec's English; the form
// shows their messages in the haulier's language by looking each English text up in the English
// `validation` catalogue: text → key, or for a message with values ("Vehicle Height must be at most
// 4.6 m") a pattern → key with the values. A message we have no key for is shown as it came.

type Entry = { key: string; pattern: RegExp; names: string[] };

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let table: { exact: Map<string, string>; patterns: Entry[] } | null = null;

function messageTable() {
  if (table) return table;
  const exact = new Map<string, string>();
  const patterns: Entry[] = [];
  for (const [id, compiled] of Object.entries(ENGLISH_MESSAGES)) {
    if (!id.startsWith('validation.')) continue;
    const key = id.slice('validation.'.length);
    const tokens = compiled as unknown[];
    if (tokens.every((token) => typeof token === 'string')) {
      exact.set(tokens.join(''), key);
      continue;
    }
    // A compiled message: text pieces and [name] placeholders (validation messages have no plurals).
    const names: string[] = [];
    let source = '';
    for (const token of compiled as unknown[]) {
      if (typeof token === 'string') source += escape(token);
      else if (Array.isArray(token) && token.length === 1 && typeof token[0] === 'string') {
        names.push(token[0]);
        source += '(.+?)';
      } else {
        source = '';
        break;
      }
    }
    if (source) patterns.push({ key, pattern: new RegExp(`^${source}$`), names });
  }
  table = { exact, patterns };
  return table;
}

/** The key and values of an English validation message, or null when it is not in the catalogue. */
export function validationKeyOf(message: string): { key: string; values?: Record<string, string> } | null {
  const { exact, patterns } = messageTable();
  const key = exact.get(message);
  if (key) return { key };
  for (const entry of patterns) {
    const match = entry.pattern.exec(message);
    if (match) return { key: entry.key, values: Object.fromEntries(entry.names.map((name, i) => [name, match[i + 1]])) };
  }
  return null;
}

/** A message of the shared schemas or of a server refusal, in the chosen language. */
export function useTranslateMessage(): (message: string) => string {
  const { t, language } = useT('validation');
  return useCallback(
    (message: string) => {
      if (language === 'en') return message;
      const found = validationKeyOf(message);
      return found ? t(found.key, found.values) : message;
    },
    [t, language],
  );
}
