import { describe, expect, it } from 'vitest';
import { buildDemoData } from './demo-data';

// The demo's invoices (decision 022) at the instants around month boundaries, where a monthly
// history is most likely to leave a gap: one per organization and month, numbered uniquely, never
// issued or paid in the future; the dashboard's 30-day revenue card always has a payment to show;
// Harbour Foods' latest invoice is open (the one a super admin can mark paid).

const DAY = 86_400_000;
const instants = ['2027-01', '2027-02', '2027-03', '2027-05', '2027-08', '2027-12'].flatMap((month) => [
  `${month}-01T00:05:00Z`, // before the month's run (00:10)
  `${month}-01T00:15:00Z`,
  `${month}-01T23:59:00Z`,
  `${month}-02T00:05:00Z`,
  `${month}-11T00:05:00Z`,
  `${month}-28T23:59:00Z`,
]);

describe('demo invoices', () => {
  it.each(instants)('at %s', (at) => {
    const now = new Date(at);
    const data = buildDemoData({ now, passwordHash: 'x' });
    const orgIdOf = (slug: string) => data.organizations.find((o) => o.slug === slug)!.id!;
    const rows = data.invoices;

    expect(new Set(rows.map((r) => `${r.orgId}/${r.periodKey}`)).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.number)).size).toBe(rows.length);
    for (const row of rows) {
      expect(row.number).toMatch(/^INV-\d{6}-\d{6}$/);
      expect(row.issuedAt!.getTime()).toBeLessThanOrEqual(now.getTime());
      if (row.paidAt) expect(row.paidAt.getTime()).toBeLessThanOrEqual(now.getTime());
      expect(row.status === 'paid').toBe(!!row.paidAt);
      expect(row.lineItems![0]!.amount).toBe(row.amountDue);
    }

    const paidLast30Days = rows.filter((r) => r.status === 'paid' && r.paidAt!.getTime() >= now.getTime() - 30 * DAY);
    expect(paidLast30Days.length, 'a payment in the 30-day window').toBeGreaterThan(0);

    const harbour = rows.filter((r) => r.orgId === orgIdOf('harbour-foods')).sort((a, b) => b.issuedAt!.getTime() - a.issuedAt!.getTime());
    expect(harbour[0]!.status).toBe('open');
    expect(harbour.slice(1).every((r) => r.status === 'paid')).toBe(true);
  });
});
