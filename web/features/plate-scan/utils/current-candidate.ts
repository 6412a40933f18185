import { plateCandidateActionFor, type PlateCandidateDto } from '../../../../domain/plate-reads';

/** What is known of a booking elsewhere: the gate's list, or the answer to a move made here. */
export type KnownBooking = { status: string; version: number };

/**
 * The candidate as it is now: the newest (highest version) of what the read answered, what the
 * gate's live list shows and what this screen did, with the gate move that status offers. So a
 * vehicle checked in at the dashboard (or by the scanner a moment ago) no longer offers Check In,
 * and the next move carries the version the server expects.
 */
export function currentCandidate(candidate: PlateCandidateDto, ...known: Array<KnownBooking | undefined>): PlateCandidateDto {
  let newest: KnownBooking = candidate;
  for (const k of known) if (k && k.version > newest.version) newest = k;
  if (newest === candidate) return candidate;
  return { ...candidate, status: newest.status, version: newest.version, action: plateCandidateActionFor(newest.status) };
}
