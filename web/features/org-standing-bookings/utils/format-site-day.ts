/** A calendar date of a series (already the site's own day, so no zone shift) as 'Tue 1 Dec 2026'. */
export function formatSiteDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' })
    .format(new Date(Date.UTC(y, m - 1, d)))
    .replace(',', '');
}
