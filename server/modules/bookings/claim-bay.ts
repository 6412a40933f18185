import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { Candidate } from '../availability/availability.service';
import { isVehicleOverlap, noAvailableBay, pgCode, vehicleAlreadyBooked } from './booking-errors';

/**
 * Takes the first candidate bay the database accepts. The exclusion constraint is the final
 * guard: when a concurrent booking took a bay between our read and our insert (23P01), the
 * savepoint is rolled back and the next bay is tried.
 *
 * Two transactions inserting conflicting rows at the same instant can each see the other's
 * uncommitted row and deadlock inside the constraint check (40P01 after a one-second wait). A
 * transaction-scoped advisory lock on the bay, taken inside the savepoint, queues claimants of one
 * bay instead: the second waits for the first to commit and then fails fast with 23P01. Each
 * transaction holds at most one bay lock while waiting for another, so the locks cannot cycle.
 */
export async function claimBay<T>(
  tx: Tx,
  candidates: Candidate[],
  write: (sp: Tx, candidate: Candidate) => Promise<T>,
  vehicleRegistration?: string,
): Promise<T> {
  for (const candidate of candidates) {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        return await tx.transaction(async (sp) => {
          // The same key as the one-statement path (bay, UTC day): both paths queue on one lock.
          await sp.execute(sql`select pg_advisory_xact_lock(hashtextextended(${candidate.bayId}::text, floor(extract(epoch from ${candidate.start.toISOString()}::timestamptz) / 86400)::bigint))`);
          return write(sp, candidate);
        });
      } catch (error) {
        const code = pgCode(error);
        if (isVehicleOverlap(error)) throw vehicleAlreadyBooked(vehicleRegistration ?? 'this vehicle');
        if (code === '23P01') break; // taken: next bay
        if (code === '40P01' && attempt === 0) continue; // deadlock victim: the other may have rolled back, retry once
        if (code === '40P01') break;
        throw error;
      }
    }
  }
  throw noAvailableBay();
}
