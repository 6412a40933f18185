import { sql, type SQLWrapper } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../db/client';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { haulierBookingsQueriesAnyOrg, listStandingBookingsAnyOrg } from './haulier-accounts.repo';

// A haulier's bookings and standing bookings are read across every organization by their sign-in
// e-mail, on tables that grow with every organization: each read must find its rows through the
// index on lower(tenant_email) (bookings: migration 0021; standing bookings: 0022), never by
// reading the whole table. (With sequential scans priced out, a plan still names the table's Seq
// Scan when no index fits; so these fail without the index.)

const rowsOf = (result: unknown): Array<Record<string, string>> =>
  Array.isArray(result) ? (result as Array<Record<string, string>>) : ((result as { rows: Array<Record<string, string>> }).rows ?? []);

describe.each(databaseKinds)('the haulier account’s reads on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  /** The plan of `query` with sequential scans priced out. */
  const planOf = (query: (tx: Tx) => SQLWrapper) =>
    t.ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rowsOf(await tx.execute(sql`explain ${query(tx)}`))
        .map((row) => Object.values(row)[0])
        .join('\n');
    });

  it('the standing bookings list uses standing_bookings_email_lower_idx', async () => {
    const plan = await planOf((tx) => listStandingBookingsAnyOrg(tx, 'Dispatch@Example.com', 20));
    expect(plan).toMatch(/Index Scan( Backward)? using standing_bookings_email_lower_idx on standing_bookings/);
    expect(plan).not.toMatch(/Seq Scan on standing_bookings/);
  });

  it.each(['upcoming', 'past'] as const)('the %s bookings page and its count use bookings_email_lower_idx', async (scope) => {
    const params = { email: 'Dispatch@Example.com', scope, now: new Date('2026-11-26T09:00:00Z'), limit: 20, offset: 40 };
    for (const plan of [await planOf((tx) => haulierBookingsQueriesAnyOrg(tx, params).page), await planOf((tx) => haulierBookingsQueriesAnyOrg(tx, params).count)]) {
      expect(plan).toMatch(/(Index|Bitmap Index) Scan( Backward)? (using|on) bookings_email_lower_idx/);
      expect(plan).not.toMatch(/Seq Scan on bookings/);
    }
  });
});
