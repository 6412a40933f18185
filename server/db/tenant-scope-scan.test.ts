import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOW_LIST, ROOT, SCHEMA_FILE, allows, isAllowed, readTenantTables, scanServer, scanSource, type Checked } from '../../scripts/tenant-scope-scan';

// Issue 20 item 5: every write and row lock on a tenant table names the organization in its own
// WHERE, and repository reads that do not are named …AnyOrg (scripts/tenant-scope-scan.ts).

const tables = readTenantTables(fs.readFileSync(path.join(ROOT, SCHEMA_FILE), 'utf8'));
const describeFinding = (c: Checked) => `${c.kind} ${c.table} at ${c.file}:${c.line} in ${c.fn} (${c.via}: ${c.reason})`;

describe('tenant scope scan of the server', () => {
  const checked = scanServer();

  it('finds every write and row lock on a tenant table scoped by org_id, but the allow-listed ones', () => {
    const violations = checked.filter((c) => c.kind !== 'read' && !c.scoped && !isAllowed(c, ALLOW_LIST)).map(describeFinding);
    expect(violations).toEqual([]);
  });

  it('finds every repository read scoped by org_id, or named …AnyOrg, or allow-listed', () => {
    const violations = checked.filter((c) => c.kind === 'read' && !c.scoped && !isAllowed(c, ALLOW_LIST)).map(describeFinding);
    expect(violations).toEqual([]);
  });

  it('has no stale allow-list entry: each one still matches an unscoped statement', () => {
    const unscoped = checked.filter((c) => !c.scoped);
    const stale = ALLOW_LIST.filter((entry) => !unscoped.some((c) => allows(entry, c)));
    expect(stale).toEqual([]);
  });

  it('sees the code it guards (a scan that finds nothing proves nothing)', () => {
    // The schema's tenant tables, nullable org_id included.
    expect([...tables.values()].map((t) => t.sqlName)).toEqual(
      expect.arrayContaining(['bookings', 'bays', 'sites', 'blackouts', 'blackout_series', 'plate_reads', 'webhook_endpoints', 'auth_sessions', 'mail_outbox']),
    );
    expect(tables.has('users')).toBe(false);
    expect(tables.has('organizations')).toBe(false);
    const writes = checked.filter((c) => c.kind !== 'read');
    expect(writes.length).toBeGreaterThan(50);
    expect(writes.filter((c) => c.scoped).length).toBeGreaterThan(40);
    // Known statements, by each route the scan takes: a drizzle write, a drizzle lock, a raw SQL lock.
    expect(checked).toContainEqual(expect.objectContaining({ file: 'server/modules/bookings/bookings.repo.ts', fn: 'updateBooking', kind: 'update', table: 'bookings', scoped: true }));
    expect(checked).toContainEqual(expect.objectContaining({ file: 'server/modules/bays/org-bays.repo.ts', fn: 'lockBay', kind: 'lock', table: 'bays', scoped: true }));
    expect(checked).toContainEqual(expect.objectContaining({ file: 'server/modules/bookings/affected-bookings.ts', kind: 'lock', table: 'bookings', via: 'sql', scoped: true }));
    expect(checked).toContainEqual(expect.objectContaining({ file: 'server/mail/outbox.ts', kind: 'lock', table: 'mail_outbox', via: 'sql', scoped: false }));
  });
});

describe('tenant scope scanner (probes)', () => {
  const FILE = 'server/modules/probe/probe.repo.ts';
  const header = `import { and, eq, or, sql } from 'drizzle-orm';\nimport { bays, bookings, users, bookings as b } from '../../db/schema';\n`;
  /** What the scan says of `body` in a repository file: one entry per statement, `kind table fn scoped|UNSCOPED`. */
  const scan = (body: string, file = FILE) =>
    scanSource(file, header + body, tables).map((c) => `${c.kind} ${c.table} ${c.fn} ${c.scoped ? 'scoped' : isAllowed(c, []) ? 'named' : 'UNSCOPED'}`);

  it('flags a write by a bare id, and passes the same write with the organization', () => {
    expect(
      scan(`
        export const bare = (db, id) => db.update(bookings).set({ status: 'x' }).where(eq(bookings.id, id));
        export const scoped = (db, key) => db.update(bookings).set({ status: 'x' }).where(and(eq(bookings.orgId, key.orgId), eq(bookings.id, key.id)));
        export const reversed = (db, key) => db.delete(bookings).where(and(eq(bookings.id, key.id), eq(key.orgId, bookings.orgId)));
      `),
    ).toEqual(['update bookings bare UNSCOPED', 'update bookings scoped scoped', 'delete bookings reversed scoped']);
  });

  it('flags a write without where, with org_id only under or(), or with another table’s org_id', () => {
    expect(
      scan(`
        export async function all(db) { await db.delete(bays); }
        export async function either(db, o, id) { await db.update(bays).set({ active: false }).where(or(eq(bays.orgId, o), eq(bays.id, id))); }
        export async function wrongTable(db, o, id) { await db.update(bookings).set({ status: 'x' }).where(and(eq(bays.orgId, o), eq(bookings.id, id))); }
        export async function aliased(db, id) { await db.update(b).set({ status: 'x' }).where(eq(b.id, id)); }
      `),
    ).toEqual(['delete bays all UNSCOPED', 'update bays either UNSCOPED', 'update bookings wrongTable UNSCOPED', 'update bookings aliased UNSCOPED']);
  });

  it('follows conditions through variables, spread arrays, helpers of the file and sql templates', () => {
    expect(
      scan(`
        const byKey = (key) => and(eq(bookings.orgId, key.orgId), eq(bookings.id, key.id));
        function scopeOf(o) { const where = [eq(bays.orgId, o)]; return where; }
        export async function viaHelper(db, key) { await db.update(bookings).set({ status: 'x' }).where(byKey(key)); }
        export async function viaArray(db, o, id) { const where = [eq(bays.orgId, o)]; where.push(eq(bays.id, id)); await db.delete(bays).where(and(...where)); }
        export async function viaCall(db, o) { await db.delete(bays).where(and(...scopeOf(o), eq(bays.active, false))); }
        export async function viaSql(db, o, id) { await db.update(bays).set({ active: false }).where(sql\`\${bays.orgId} = \${o} and \${bays.id} = \${id}\`); }
        export async function sqlOr(db, o, id) { await db.update(bays).set({ active: false }).where(sql\`\${bays.orgId} = \${o} or \${bays.id} = \${id}\`); }
      `),
    ).toEqual(['update bookings viaHelper scoped', 'delete bays viaArray scoped', 'delete bays viaCall scoped', 'update bays viaSql scoped', 'update bays sqlOr UNSCOPED']);
  });

  it('flags a row lock by a bare id, through a query variable too, and a lock on a table it cannot name', () => {
    expect(
      scan(`
        export function lockBare(tx, id) { return tx.select().from(bookings).where(eq(bookings.id, id)).for('update'); }
        export function lockMaybe(tx, id, forUpdate) {
          const query = tx.select().from(bays).where(eq(bays.id, id));
          return forUpdate ? query.for('update', { of: bays }) : query;
        }
        export function lockScoped(tx, o, id) { return tx.select().from(bays).where(and(eq(bays.orgId, o), eq(bays.id, id))).for('no key update'); }
        export function lockUnknown(tx, q) { return q().for('update'); }
        export function lockUsers(tx, id) { return tx.select().from(users).where(eq(users.id, id)).for('update'); }
      `),
    ).toEqual([
      'lock bookings lockBare UNSCOPED',
      'read bays lockMaybe UNSCOPED',
      'lock bays lockMaybe UNSCOPED',
      'lock bays lockScoped scoped',
      'lock ? lockUnknown UNSCOPED',
    ]);
  });

  it('reads SQL text: update, delete and row locks need [alias.]org_id = in their own where, not in a subquery', () => {
    expect(
      scan(`
        export const a = (q, id) => q(\`update bookings set status = 'x' where id = $1\`, [id]);
        export const b2 = (q, o, id) => q(\`update bookings k set status = 'x' where k.org_id = $1 and k.id = $2\`, [o, id]);
        export const c = (q, o) => q(\`update bookings set status = 'x' where id in (select id from bookings where org_id = $1)\`, [o]);
        export const d = (q, id) => q(\`with gone as (delete from bays where id = $1 returning 1) select count(*) from gone\`, [id]);
        export const e = (q, id) => q(\`select k.id from bookings k join bays x on x.id = k.bay_id where k.id = $1 for update of k\`, [id]);
        export const f = (q, o, id) => q(\`select k.id from bookings k where k.org_id = $1 and k.id = $2 for update of k skip locked\`, [o, id]);
        export const g = (db, id) => db.execute(sql\`update \${bookings} set status = 'x' where \${bookings.id} = \${id}\`);
        export const h = (db, o, id) => db.execute(sql\`delete from \${bays} where \${bays.orgId} = \${o} and \${bays.id} = \${id}\`);
        export const i = (q, id) => q(\`update users set active = false where id = $1\`, [id]);
      `),
    ).toEqual([
      'update bookings a UNSCOPED',
      'update bookings b2 scoped',
      'update bookings c UNSCOPED',
      'delete bays d UNSCOPED',
      'lock bookings e UNSCOPED',
      'lock bookings f scoped',
      'update bookings g UNSCOPED',
      'delete bays h scoped',
    ]);
  });

  it('asks repository reads without org_id to say so in their name', () => {
    const reads = `
      export function findBooking(db, id) { return db.select().from(bookings).where(eq(bookings.id, id)); }
      export function findBookingAnyOrg(db, id) { return db.select().from(bookings).where(eq(bookings.id, id)); }
      export function findScoped(db, o, id) { return db.select().from(bookings).innerJoin(bays, eq(bays.id, bookings.bayId)).where(and(eq(bays.orgId, o), eq(bookings.id, id))); }
      function base(db) { return db.select().from(bays); }
      export const scopedThroughBuilder = (db, o) => base(db).where(eq(bays.orgId, o));
      export const bareThroughBuilder = (db, id) => base(db).where(eq(bays.id, id));
    `;
    expect(scan(reads)).toEqual([
      'read bookings findBooking UNSCOPED',
      'read bookings findBookingAnyOrg named',
      'read bookings findScoped scoped',
      'read bays scopedThroughBuilder scoped',
      'read bays bareThroughBuilder UNSCOPED',
    ]);
    // Reads are a repository rule; writes and locks are checked in every file.
    expect(scan(reads, 'server/modules/probe/probe.service.ts')).toEqual([]);
  });
});
