import { localDateOf, localTimeOf } from '../../../../domain/slot-grid';
import type { PlateReadSource } from '../../../../domain/plate-reads';

// Times on the scanner are the site's, in its own time zone: '14:30' today, 'Tue 24 Nov 00:30' on another day.

const dayFormat = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

export function siteDateTime(iso: string, timeZone: string, now = new Date()): string {
  const at = new Date(iso);
  const time = localTimeOf(at, timeZone);
  const date = localDateOf(at, timeZone);
  if (date === localDateOf(now, timeZone)) return time;
  const [y, m, d] = date.split('-').map(Number);
  return `${dayFormat.format(new Date(Date.UTC(y!, m! - 1, d!)))} ${time}`;
}

/** '14:02:11' at the site: when a read was taken (seconds matter for the 60-second repeat rule). */
export function siteClock(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false, timeZone }).format(new Date(iso));
}

/** When a read was taken: '14:02:11' today at the site, else 'Tue 24 Nov 14:02'. */
export function readTime(iso: string, timeZone: string, now = new Date()): string {
  return localDateOf(new Date(iso), timeZone) === localDateOf(now, timeZone) ? siteClock(iso, timeZone) : siteDateTime(iso, timeZone, now);
}

const SOURCE_LABELS: Record<PlateReadSource, string> = {
  typed: 'Typed',
  photo: 'Photo',
  camera: 'Device camera',
  webhook: 'Site camera',
};

/** How the plate was read, e.g. 'Device camera · 87% sure' or "Site camera 'Gate 1'". */
export function readSourceLabel(read: { source: PlateReadSource; confidence: number | null; camera: string | null }): string {
  const parts = [SOURCE_LABELS[read.source] + (read.camera ? ` ‘${read.camera}’` : '')];
  if (read.confidence !== null && read.source !== 'typed') parts.push(`${Math.round(read.confidence * 100)}% sure`);
  return parts.join(' · ');
}

/** How alike the read and a registration are, e.g. "94% match". */
export function similarity(score: number): string {
  return `${Math.round(score * 100)}% match`;
}
