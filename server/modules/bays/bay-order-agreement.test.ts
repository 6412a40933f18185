import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bestFitOrder } from '../../../domain/availability';
import { compareBayNames, naturalBayKey } from '../../../domain/bay-order';
import { createBay, createOrg, createSite } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';

// One natural order of bay names (decision 038): what the database answers for
// `order by sort_key, id` (bays.sort_key = natural_sort_key(name), collated "C") is what the
// domain's compareBayNames gives, and the database's key is naturalBayKey's, character for
// character. Names straight into the table, past the API's checks, to try what a 40-character
// limit would hide too.

const TRICKY_NAMES = [
  // case, accents (composed and decomposed), separators, the examples of issue 20
  'Ä-1', 'A-1', 'a-1', 'A-01', 'A 1', 'A_1', 'A1', 'B_1', 'b-1', 'B-1', 'B-10', 'B-2', 'B-02', 'b-02',
  'É-3', 'é-3', 'e\u0301-3', 'E-3', 'Éclair', 'eclair', 'Zebra', 'zebra', 'Ø-1', 'ß-1', 'SS-1',
  // bare numbers, leading zeros, digit runs of 20, 39, 40 and 45 digits
  '10', '2', '0', '00', '007', '7', 'Dock 12345678901234567890123', 'Dock 9', '1'.repeat(40), '9'.repeat(39),
  `${'0'.repeat(45)}7`, '1'.repeat(45), 'Bay 9', 'Bay 10', 'Bay 9a', 'Bay 9 a', 'Bay9', 'bay 9-2', 'bay 9-10',
  // empty-ish
  '', ' ', '-', '_', '.', '  1',
  // outside ASCII: other scripts keep their case, signs that decompose to ASCII, digits that are
  // not ASCII digits, a letter outside the BMP next to a BMP letter above the surrogates
  'Ω-1', 'ω-1', 'Б-1', 'б-1', '\u212A-1', '\u212B-1', 'İ-1', 'ı-1', 'ǅ-1', 'ﬁ-1', '²', '٣', 'Ⅻ',
  '𝔸-1', 'Ａ-1', '😀', '😁-2', '漢字-3', 'ア-1', '\uFFFD',
];

/** Sites for the names: two names that a case-insensitive unique index could take for one go apart. */
function spreadOverSites(names: readonly string[]): string[][] {
  const groups: Array<{ names: string[]; taken: Set<string> }> = [];
  for (const name of names) {
    const clash = naturalBayKey(name).toLowerCase();
    let group = groups.find((g) => !g.taken.has(clash));
    if (!group) groups.push((group = { names: [], taken: new Set() }));
    group.names.push(name);
    group.taken.add(clash);
  }
  return groups.map((g) => g.names);
}

describe.each(databaseKinds)('natural bay order agrees between the database and the domain on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  const query = <T>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  beforeAll(async () => {
    t = await createTestApp(kind);
    const org = await createOrg(t.ctx.database);
    orgId = org.id;
    let clearance = 0;
    for (const names of spreadOverSites(TRICKY_NAMES)) {
      const site = await createSite(t.ctx.database, org.id);
      for (const name of names) {
        // Three clearances, so best fit's order has ties on clearance to break by name.
        await createBay(t.ctx.database, site, { name, heightClearanceM: 4 + (clearance++ % 3) * 0.5 });
      }
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  it('collates sort_key "C", whatever the database collation', async () => {
    const [column] = await query<{ collation_name: string | null }>(
      `select collation_name from information_schema.columns where table_name = 'bays' and column_name = 'sort_key'`,
    );
    expect(column?.collation_name).toBe('C');
  });

  it('stores naturalBayKey as each bay sort key', async () => {
    const rows = await query<{ name: string; sort_key: string }>(`select name, sort_key from bays where org_id = $1`, [orgId]);
    expect(rows).toHaveLength(TRICKY_NAMES.length);
    expect(rows.map((r) => [r.name, r.sort_key])).toEqual(rows.map((r) => [r.name, naturalBayKey(r.name)]));
  });

  it('orders by sort_key as compareBayNames does', async () => {
    const rows = await query<{ id: string; name: string }>(`select id, name from bays where org_id = $1 order by sort_key, id`, [orgId]);
    const byDomain = [...rows].sort((a, b) => compareBayNames(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    expect(rows.map((r) => r.name)).toEqual(byDomain.map((r) => r.name));
    expect(rows.map((r) => r.id)).toEqual(byDomain.map((r) => r.id));
  });

  it("gives best fit's order: clearance, then natural name, then id", async () => {
    const rows = await query<{ id: string; name: string; height_clearance_m: string }>(
      `select id, name, height_clearance_m from bays where org_id = $1 order by height_clearance_m, sort_key, id`,
      [orgId],
    );
    const bays = rows.map((r) => ({ id: r.id, name: r.name, heightClearanceM: Number(r.height_clearance_m) }));
    expect(rows.map((r) => r.id)).toEqual(bestFitOrder(bays).map((b) => b.id));
  });
});
