import { getTableColumns, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { DEMO_PASSWORD } from '../../domain/constants';
import type { AppContext } from '../context';
import { hashPassword } from '../auth/passwords';
import type { Tx } from './client';
import { buildDemoData } from './demo-data';
import {
  auditLog,
  bays,
  billing,
  blackouts,
  bookings,
  invoices,
  organizations,
  orgMemberships,
  plans,
  sites,
  tenants,
  users,
} from './schema';

// An arbitrary constant: two API nodes starting on one empty PostgreSQL server seed only once.
const SEED_LOCK_KEY = 727_401_994;
/**
 * Inserts every row with one statement: the rows travel as a single JSON parameter that
 * PostgreSQL expands with json_populate_recordset. Several times faster than a multi-row VALUES
 * list for the few hundred bookings (no per-value bind parameters to build and parse), which
 * matters for the first-start budget. Only the columns the rows set are written; the others keep
 * their defaults.
 */
async function insertAll<T extends PgTable>(tx: Tx, table: T, rows: T['$inferInsert'][]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.entries(getTableColumns(table)).filter(([key]) =>
    rows.some((row) => (row as Record<string, unknown>)[key] !== undefined),
  );
  const payload = rows.map((row) =>
    Object.fromEntries(columns.map(([key, column]) => [column.name, (row as Record<string, unknown>)[key] ?? null])),
  );
  const names = sql.join(
    columns.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  );
  await tx.execute(
    sql`insert into ${table} (${names}) select ${names} from json_populate_recordset(null::${table}, ${JSON.stringify(payload)}::json)`,
  );
}

/**
 * Seeds the demo data of the README (organizations, sites, bays, accounts, tenants, about six
 * weeks of bookings around now, blackouts, billing and an audit trail) when the database has no
 * organization yet. One transaction: it all lands or nothing does. Returns whether it seeded.
 */
export async function seedDemoDataIfEmpty(ctx: AppContext): Promise<boolean> {
  const { db } = ctx.database;
  const isEmpty = async (handle: Pick<Tx, 'select'>) =>
    (await handle.select({ id: organizations.id }).from(organizations).limit(1)).length === 0;
  if (!(await isEmpty(db))) return false;

  // One argon2 hash shared by every demo account: hashing is the slow part of seeding.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const data = buildDemoData({ now: ctx.clock.now(), passwordHash });

  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    if (!(await isEmpty(tx))) return false;
    // Plans are reference data a platform admin may have created before any organization.
    const existingPlans = await tx.select({ id: plans.id, name: plans.name }).from(plans);
    const planIdByName = new Map(existingPlans.map((p) => [p.name, p.id]));
    const remap = new Map<string, string>();
    for (const plan of data.plans) {
      const existing = planIdByName.get(plan.name);
      if (existing) remap.set(plan.id!, existing);
    }
    const planId = (id: string | null | undefined) => (id ? (remap.get(id) ?? id) : null);
    await insertAll(
      tx,
      plans,
      data.plans.filter((plan) => !remap.has(plan.id!)),
    );
    data.billing.forEach((row) => (row.planId = planId(row.planId)));
    data.invoices.forEach((row) => (row.planId = planId(row.planId)));
    await insertAll(tx, organizations, data.organizations);
    await insertAll(tx, billing, data.billing);
    await insertAll(tx, invoices, data.invoices);
    // The demo's invoices are numbered as the monthly run numbers them: the run continues after them.
    if (data.invoices.length > 0) await tx.execute(sql`select setval('invoice_number_seq', ${data.invoices.length})`);
    await insertAll(tx, users, data.users);
    await insertAll(tx, orgMemberships, data.memberships);
    await insertAll(tx, sites, data.sites);
    await insertAll(tx, bays, data.bays);
    await insertAll(tx, tenants, data.tenants);
    await insertAll(tx, blackouts, data.blackouts);
    await insertAll(tx, bookings, data.bookings);
    await insertAll(tx, auditLog, data.audit);
    return true;
  });
}
