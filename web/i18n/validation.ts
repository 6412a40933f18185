import { useCallback } from 'react';
import { SPECIAL_ACCESS_LABELS } from '../../domain/enums';
import type { Language } from '../../domain/languages';
import { ENGLISH_MESSAGES } from './catalogues';
import { useT } from './index';
import { intlLocale } from './locale';

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

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const weekdayOf = (name: string) => WEEKDAYS.findIndex((day) => day === name || day.slice(0, 3) === name);
const monthOf = (name: string) => MONTHS.findIndex((month) => month === name || month.slice(0, 3) === name);
const SPECIAL_ACCESS_BY_LABEL = new Map(Object.entries(SPECIAL_ACCESS_LABELS).map(([need, label]) => [label, need]));
const STATUS_WORDS: Record<string, string> = {
  pending: 'pending',
  'pending review': 'pending',
  approved: 'approved',
  declined: 'declined',
  cancelled: 'cancelled',
  'checked in': 'checked_in',
  checked_in: 'checked_in',
  'at the bay': 'in_progress',
  'in progress': 'in_progress',
  in_progress: 'in_progress',
  completed: 'completed',
  overstay: 'overstay',
  'no-show': 'no_show',
  no_show: 'no_show',
};

/** A calendar day in UTC (the server wrote it in the site's calendar already). */
const utcDay = (year: number, month: number, day: number) => new Date(Date.UTC(year, month, day, 12));

/** The year nearest to now in which `day month` falls on that weekday ("Mon 24 Nov" has no year). */
function yearOf(weekday: number, month: number, day: number, now = new Date()): number {
  const thisYear = now.getUTCFullYear();
  for (let offset = 0; offset <= 14; offset++) {
    for (const year of offset === 0 ? [thisYear] : [thisYear + offset, thisYear - offset]) {
      if (utcDay(year, month, day).getUTCDay() === weekday) return year;
    }
  }
  return thisYear;
}

/**
 * A value the server wrote in English (a day, a date, a weekday, a duration, a booking status) in
 * the language's words and the locale's format; any other value (a site's name, a time) as it came.
 */
export function localizeValue(value: string, language: Language, statusLabel?: (status: string) => string): string {
  const locale = intlLocale(language);
  const format = (date: Date, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(date);
  let m = /^(\d{1,2}) ([A-Z][a-z]{2}) (\d{4})$/.exec(value); // '21 Jan 2027'
  if (m && monthOf(m[2]!) >= 0) return format(utcDay(Number(m[3]), monthOf(m[2]!), Number(m[1])), { day: 'numeric', month: 'short', year: 'numeric' });
  m = /^([A-Z][a-z]+) (\d{1,2}) ([A-Z][a-z]+)$/.exec(value); // 'Mon 24 Nov', 'Friday 27 November'
  if (m && weekdayOf(m[1]!) >= 0 && monthOf(m[3]!) >= 0) {
    const isLong = m[1]!.length > 3;
    const date = utcDay(yearOf(weekdayOf(m[1]!), monthOf(m[3]!), Number(m[2])), monthOf(m[3]!), Number(m[2]));
    return format(date, { weekday: isLong ? 'long' : 'short', day: 'numeric', month: isLong ? 'long' : 'short' });
  }
  if (WEEKDAYS.includes(value)) return format(utcDay(2026, 0, 4 + WEEKDAYS.indexOf(value)), { weekday: 'long' }); // 4 Jan 2026 is a Sunday
  if (/^\d+\.\d+$/.test(value)) return new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }).format(Number(value)); // '4.6' (metres)
  m = /^(\d+) (hours?|minutes?|seconds?)$/.exec(value); // formatMinutes: '2 hours', '90 minutes'; the rate limit's '30 seconds'
  if (m) {
    const unit = m[2]!.replace(/s$/, '');
    return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(Number(m[1]));
  }
  const status = STATUS_WORDS[value.toLowerCase()];
  if (status && statusLabel) return statusLabel(status);
  return value;
}

/** A message of the shared schemas or of a server refusal, in the chosen language. */
export function useTranslateMessage(): (message: string) => string {
  const { t, language } = useT('validation');
  const { t: portal } = useT('portal');
  return useCallback(
    (message: string) => {
      if (language === 'en') return message;
      const found = validationKeyOf(message);
      if (!found) return message;
      const say = (value: string) => {
        // A list of special access needs ("Oversize Load, Refrigerated"), each in the portal's words.
        const needs = value.split(', ').map((label) => SPECIAL_ACCESS_BY_LABEL.get(label));
        if (needs.every(Boolean)) return needs.map((need) => portal(`specialAccess.${need}`)).join(', ');
        return localizeValue(value, language, (status) => t(`status.${status}`));
      };
      const values = found.values ? Object.fromEntries(Object.entries(found.values).map(([name, value]) => [name, say(value)])) : undefined;
      return t(found.key, values);
    },
    [t, portal, language],
  );
}
