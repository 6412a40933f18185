import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { listStandingBookingsAnyOrg } from './haulier-accounts.repo';

// A haulier's standing bookings are read across every organization by their sign-in e-mail, on a
// table that grows with every organization: the read must find its rows through the index on
// lower(tenant_email) (migration 0022), never by reading the whole table. (With sequential scans
// priced out, a plan still names the table's Seq Scan when no index fits; so this fails without it.)

const rowsOf = (result: unknown): Array<Record<string, string>> =>
  Array.isArray(result) ? (result as Array<Record<string, string>>) : ((result as { rows: Array<Record<string, string>> }).rows ?? []);

describe.each(databaseKinds)('the haulier account’s reads on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('the standing bookings list uses standing_bookings_email_lower_idx', async () => {
    const plan = await t.ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rowsOf(await tx.execute(sql`explain ${listStandingBookingsAnyOrg(tx, 'Dispatch@Example.com', 20)}`))
        .map((row) => Object.values(row)[0])
        .join('\n');
    });
    expect(plan).toMatch(/Index Scan( Backward)? using standing_bookings_email_lower_idx on standing_bookings/);
    expect(plan).not.toMatch(/Seq Scan on standing_bookings/);
  });
});
