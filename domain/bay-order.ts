import { MAX_BAY_NAME_LENGTH } from './org-bays';

// The one natural order of bay names ('B-2' before 'B-10'): best fit's tie-break and every bay list.
// The database keeps the same key in bays.sort_key (SQL function natural_sort_key, migration 0018,
// column collated "C"), so `order by sort_key` there and compareBayNames here give one order.
// Both sides must build the key from operations that do not depend on a locale, an ICU version or
// the database's collation, hence the plain steps below and a comparison by code point.

/**
 * Every digit run is left-padded to this width. A bay name holds at most MAX_BAY_NAME_LENGTH
 * characters, so every run of a valid name fits and numbers compare by value.
 */
export const NATURAL_DIGIT_WIDTH = MAX_BAY_NAME_LENGTH;

// Combining diacritical marks: what NFD splits off 'Ä' or 'é'.
const COMBINING_MARKS = /[\u0300-\u036f]/g;
const ASCII_CAPITALS = /[A-Z]/g;
const DIGIT_RUNS = /[0-9]+/g;

/**
 * The sort key of a bay name, in four steps (natural_sort_key in SQL does the same):
 * 1. Unicode NFD, then drop the combining marks U+0300–U+036F ('Ä' → 'A', 'é' → 'e');
 * 2. ASCII capitals A–Z to lower case (other letters keep their case: a locale-free rule);
 * 3. every run of ASCII digits loses its leading zeros and is left-padded with '0' to
 *    NATURAL_DIGIT_WIDTH (a longer run, impossible in a valid name, is kept whole);
 * 4. nothing else: spaces, hyphens and underscores stay, and keys compare by code point.
 * 'A-01', 'a-1' and 'Ä-1' share a key; callers break such ties by id.
 */
export function naturalBayKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(COMBINING_MARKS, '')
    .replace(ASCII_CAPITALS, (capital) => capital.toLowerCase())
    .replace(DIGIT_RUNS, (digits) => digits.replace(/^0+/, '').padStart(NATURAL_DIGIT_WIDTH, '0'));
}

/**
 * Compares two strings by Unicode code point, as PostgreSQL's "C" collation compares UTF-8 bytes.
 * Not `<` on JS strings: that compares UTF-16 units, which puts '𝔸' (U+1D538) before 'Ａ' (U+FF21).
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Both are whole code points below the surrogates, or one is a surrogate: compare code points.
    const cx = a.codePointAt(i)!;
    const cy = b.codePointAt(i)!;
    return cx < cy ? -1 : cx > cy ? 1 : 0;
  }
  return a.length - b.length;
}

// The keys of the names sorted lately: sorting compares each name many times. Bounded, so a
// long-running server does not keep every name it ever saw.
const keyCache = new Map<string, string>();
const KEY_CACHE_LIMIT = 10_000;

function cachedKey(name: string): string {
  let key = keyCache.get(name);
  if (key === undefined) {
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.clear();
    key = naturalBayKey(name);
    keyCache.set(name, key);
  }
  return key;
}

/** Bay names in natural order: their naturalBayKey compared by code point (0 for equal keys). */
export function compareBayNames(a: string, b: string): number {
  return compareCodePoints(cachedKey(a), cachedKey(b));
}
