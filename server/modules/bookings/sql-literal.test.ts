import { PGlite } from '@electric-sql/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlLiteral } from './prepared-statement';

// The booking statement runs on PGlite as EXECUTE with literal arguments (EXECUTE takes no protocol
// parameters), and those carry the haulier's own text: every value must come back exactly as sent,
// and no text may end the literal early.

let db: PGlite;
beforeAll(async () => {
  db = await PGlite.create();
});
afterAll(async () => {
  await db.close();
});

async function roundTrip(value: string): Promise<string> {
  const [row] = (await db.query<{ v: string }>(`select (${sqlLiteral(value)})::text as v`)).rows;
  return row!.v;
}

describe('sqlLiteral', () => {
  it('keeps quotes, backslashes, braces and unicode as they are', async () => {
    for (const text of ["O'Brien", "''; drop table bookings; --", 'back\\slash \\\\ and \\\'', '{"a":"b"}', 'tab\tand\nnewline', 'ÄÖü 東京 \u200f RTL', '$$ dollar $q$']) {
      expect(await roundTrip(text)).toBe(text);
    }
  });

  it('survives arbitrary text (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }).filter((s) => !s.includes('\u0000')), async (text) => {
        expect(await roundTrip(text)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it('writes string arrays in array syntax, element by element', async () => {
    const elements = ['plain', 'with,comma', 'with "quotes"', 'back\\slash', "it's", '{braces}', 'NULL', ''];
    const [row] = (await db.query<{ v: string[] }>(`select (${sqlLiteral(elements)})::text[] as v`)).rows;
    expect(row!.v).toEqual(elements);
  });

  it('writes null and numbers, and refuses what it cannot write safely', async () => {
    const [row] = (await db.query<{ a: string | null; b: string }>(`select (${sqlLiteral(null)})::text as a, (${sqlLiteral(3.25)})::numeric::text as b`)).rows;
    expect(row).toEqual({ a: null, b: '3.25' });
    expect(() => sqlLiteral(Number.NaN)).toThrow();
    expect(() => sqlLiteral({ a: 1 })).toThrow();
    expect(() => sqlLiteral([1, 2])).toThrow();
  });
});
