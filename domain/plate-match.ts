// Matching a number-plate read (OCR, an ANPR camera or typed) against a site's vehicles. Pure.
//
// Reads are compared on a canonical form: upper case, letters and digits only, and the letters
// OCR confuses with digits folded onto the digit (O→0, I→1, S→5, B→8, Z→2), so 'bz05 ois' and
// 'BZ05015' are the same plate. Similarity is 1 − edit distance / longer length on canonical
// forms (a confusion costs nothing, any other change one). A match is confident when one vehicle
// is best, at or above the organization's threshold, and clearly ahead of the next.

/** Letters OCR mistakes for digits, folded onto the digit in the canonical form. */
export const PLATE_CONFUSIONS: Readonly<Record<string, string>> = { O: '0', I: '1', S: '5', B: '8', Z: '2' };
/** A confident best match leads the next candidate by at least this much (one character of 6–7). */
export const PLATE_CONFIDENCE_MARGIN = 0.15;
/** Candidates below this similarity are not worth showing. */
export const PLATE_CANDIDATE_FLOOR = 0.5;
/** Reads of one plate closer together than this are one event. */
export const PLATE_DEDUP_WINDOW_MS = 60_000;
/** A plausible plate has this many letters and digits. */
export const PLATE_MIN_LENGTH = 3;
export const PLATE_MAX_LENGTH = 10;

/** Upper case, letters A–Z and digits only (accents dropped, spaces and punctuation removed). */
export function normalisePlate(raw: string): string {
  return raw
    .normalize('NFKD')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
}

/** The normalised plate with the confusable letters folded onto digits: equal reads compare equal. */
export function canonicalPlate(raw: string): string {
  return normalisePlate(raw).replace(/[OISBZ]/g, (letter) => PLATE_CONFUSIONS[letter]!);
}

/**
 * Whether a read looks like a plate: 3–10 letters and digits, with something that is (or OCR
 * may have misread from) a digit and something that is (or may be) a letter, and at least one
 * character OCR does not confuse (so a row of stripes read as 'III' or '1I1' is not a plate).
 * Words on a truck ('HAUL') and stray marks are not plates. OCR confidence scores are not
 * reliable; this is what decides whether a read is kept.
 */
export function isPlausiblePlate(raw: string): boolean {
  const plate = normalisePlate(raw);
  if (plate.length < PLATE_MIN_LENGTH || plate.length > PLATE_MAX_LENGTH) return false;
  const hasDigitLike = /[0-9OISBZ]/.test(plate);
  const hasLetterLike = /[A-Z01258]/.test(plate);
  const hasUnambiguous = /[AC-HJ-NP-RT-Y34679]/.test(plate);
  return hasDigitLike && hasLetterLike && hasUnambiguous;
}

// Canonical characters as small numbers (A–Z → 0–25, 0–9 → 26–35), for the edit distance.
function codesOf(canonical: string): Uint8Array {
  const codes = new Uint8Array(canonical.length);
  for (let i = 0; i < canonical.length; i++) {
    const c = canonical.charCodeAt(i);
    codes[i] = c >= 65 ? c - 65 : c - 48 + 26;
  }
  return codes;
}

let rowA = new Int32Array(16);
let rowB = new Int32Array(16);

/**
 * Levenshtein distance between a and b (`bLength` codes from `bStart`), or `limit + 1` as soon
 * as it must exceed `limit`
 * (every cell of a row is over the limit), which is what keeps a 5,000-vehicle search fast.
 */
function boundedDistance(a: Uint8Array, b: Uint8Array, limit: number, bStart = 0, bLength = b.length): number {
  const n = a.length;
  const m = bLength;
  if (Math.abs(n - m) > limit) return limit + 1;
  if (n === 0 || m === 0) return Math.max(n, m);
  if (rowA.length <= m) {
    rowA = new Int32Array(m + 1);
    rowB = new Int32Array(m + 1);
  }
  let previous = rowA;
  let current = rowB;
  for (let j = 0; j <= m; j++) previous[j] = j;
  for (let i = 1; i <= n; i++) {
    current[0] = i;
    let rowMin = i;
    const ai = a[i - 1]!;
    for (let j = 1; j <= m; j++) {
      const substitute = previous[j - 1]! + (ai === b[bStart + j - 1] ? 0 : 1);
      const remove = previous[j]! + 1;
      const insert = current[j - 1]! + 1;
      const best = substitute < remove ? (substitute < insert ? substitute : insert) : remove < insert ? remove : insert;
      current[j] = best;
      if (best < rowMin) rowMin = best;
    }
    if (rowMin > limit) return limit + 1;
    const swap = previous;
    previous = current;
    current = swap;
  }
  return previous[m]!;
}

/** Similarity of two plates, 0–1: 1 − edit distance / longer length, on canonical forms. */
export function plateSimilarity(a: string, b: string): number {
  const ca = canonicalPlate(a);
  const cb = canonicalPlate(b);
  const longer = Math.max(ca.length, cb.length);
  if (longer === 0) return 0;
  return 1 - boundedDistance(codesOf(ca), codesOf(cb), longer) / longer;
}

/** Vehicles whose canonical plates have one length: their codes end to end, `length` apart. */
type Bucket<T> = { length: number; vehicles: T[]; plates: string[]; codes: Uint8Array };

/** A site's vehicles prepared once for many matches (canonical forms, grouped by length). */
export type PlateIndex<T> = {
  readonly size: number;
  /** By canonical length: a read is compared only with lengths that could reach the floor. */
  readonly buckets: readonly Bucket<T>[];
};

/** Prepares vehicles for matching; `plateOf` reads a vehicle's plate (default: its `plate` field). */
export function buildPlateIndex<T extends { plate: string }>(vehicles: readonly T[]): PlateIndex<T>;
export function buildPlateIndex<T>(vehicles: readonly T[], plateOf: (vehicle: T) => string): PlateIndex<T>;
export function buildPlateIndex<T>(vehicles: readonly T[], plateOf?: (vehicle: T) => string): PlateIndex<T> {
  const read = plateOf ?? ((vehicle: T) => (vehicle as { plate: string }).plate);
  const byLength = new Map<number, { vehicles: T[]; plates: string[]; canonical: string[] }>();
  let size = 0;
  for (const vehicle of vehicles) {
    const plate = normalisePlate(read(vehicle));
    if (plate === '') continue;
    let group = byLength.get(plate.length);
    if (!group) byLength.set(plate.length, (group = { vehicles: [], plates: [], canonical: [] }));
    group.vehicles.push(vehicle);
    group.plates.push(plate);
    group.canonical.push(canonicalPlate(plate));
    size++;
  }
  const buckets = [...byLength].map(([length, group]) => ({
    length,
    vehicles: group.vehicles,
    plates: group.plates,
    codes: codesOf(group.canonical.join('')),
  }));
  return { size, buckets };
}

export type PlateCandidate<T> = {
  vehicle: T;
  /** The vehicle's plate, normalised. */
  plate: string;
  /** Similarity to the read, 0–1. */
  score: number;
  /** At or above the threshold. */
  isMatch: boolean;
};

export type PlateMatch<T> = {
  /** The read, normalised. */
  read: string;
  /** Best first (ties by plate), at most `limit`, none below `floor`. */
  candidates: PlateCandidate<T>[];
  /**
   * One vehicle is best, at or above the threshold, and ahead of the next by at least the margin.
   * Two vehicles with the same plate (or plates OCR cannot tell apart, like 'SCT30S' and 'SCT3OS')
   * are never confident: pass one entry per vehicle if a vehicle can appear twice.
   */
  confident: boolean;
};

export type MatchOptions = {
  /** Similarity a match needs (the organization's numberPlates.matchThreshold, 0.5–1). */
  threshold: number;
  /** How far ahead of the second the best must be to be confident (default PLATE_CONFIDENCE_MARGIN). */
  margin?: number;
  /** Lowest similarity listed as a candidate (default PLATE_CANDIDATE_FLOOR, never above the threshold). */
  floor?: number;
  /** Most candidates listed (default 5). */
  limit?: number;
};

/** Matches one read against a site's vehicles (an index from buildPlateIndex, or a list of { plate }). */
export function matchPlate<T extends { plate: string }>(read: string, vehicles: PlateIndex<T> | readonly T[], options: MatchOptions): PlateMatch<T>;
export function matchPlate<T>(read: string, vehicles: PlateIndex<T>, options: MatchOptions): PlateMatch<T>;
export function matchPlate<T>(read: string, vehicles: PlateIndex<T> | readonly T[], options: MatchOptions): PlateMatch<T> {
  // A plain list is { plate } vehicles (the first overload); an index is used as it is.
  const index = (Array.isArray(vehicles) ? buildPlateIndex(vehicles as readonly { plate: string }[]) : vehicles) as PlateIndex<T>;
  const { threshold, margin = PLATE_CONFIDENCE_MARGIN, limit = 5 } = options;
  const floor = Math.min(options.floor ?? PLATE_CANDIDATE_FLOOR, threshold);
  const normalised = normalisePlate(read);
  const codes = codesOf(canonicalPlate(normalised));
  const n = codes.length;
  if (n === 0) return { read: normalised, candidates: [], confident: false };

  // How often each character occurs in the read: a plate sharing few of them is too far away
  // (the distance is at least the longer length minus the characters in common), which rules
  // out most of a fleet before the edit distance is computed.
  const readCounts = new Uint8Array(36);
  for (let i = 0; i < n; i++) readCounts[codes[i]!]!++;
  const counts = readCounts.slice();
  const found: Array<{ bucket: Bucket<T>; at: number; score: number }> = [];
  for (const bucket of index.buckets) {
    const m = bucket.length;
    const longer = Math.max(n, m);
    // The distance is at least the difference in length: skip lengths that cannot reach the floor.
    const limitDistance = Math.floor((1 - floor) * longer + 1e-9);
    if (Math.abs(n - m) > limitDistance) continue;
    const minCommon = longer - limitDistance;
    const all = bucket.codes;
    for (let at = 0, start = 0; at < bucket.vehicles.length; at++, start += m) {
      let common = 0;
      for (let k = start; k < start + m; k++) {
        const code = all[k]!;
        if (counts[code]! > 0) {
          counts[code]!--;
          common++;
        }
      }
      for (let k = start; k < start + m; k++) counts[all[k]!] = readCounts[all[k]!]!;
      if (common < minCommon) continue;
      const distance = boundedDistance(codes, all, limitDistance, start, m);
      if (distance <= limitDistance) found.push({ bucket, at, score: 1 - distance / longer });
    }
  }
  const plateAt = (f: (typeof found)[number]) => f.bucket.plates[f.at]!;
  found.sort((a, b) => b.score - a.score || (plateAt(a) < plateAt(b) ? -1 : plateAt(a) > plateAt(b) ? 1 : 0));
  const candidates = found.slice(0, limit).map((f) => ({
    vehicle: f.bucket.vehicles[f.at]!,
    plate: plateAt(f),
    score: f.score,
    isMatch: f.score >= threshold - 1e-9,
  }));
  // Decided on everything found, not only the candidates listed (a limit of 1 must not hide a tie).
  const [best, second] = found;
  const confident = best !== undefined && best.score >= threshold - 1e-9 && (second === undefined || best.score - second.score >= margin - 1e-9);
  return { read: normalised, candidates, confident };
}

export type ReadDeduper = {
  /**
   * Whether this read repeats the same plate (canonical form) read less than the window before
   * the last read of it. The window slides: a plate read every few seconds stays one event, and
   * is a new event once it has not been read for the whole window. The clock is the caller's.
   */
  isRepeat(plate: string, at: Date): boolean;
};

/** Groups repeat reads of one plate (cameras send several per pass) into one event. */
export function createReadDeduper(windowMs: number = PLATE_DEDUP_WINDOW_MS): ReadDeduper {
  const lastSeen = new Map<string, number>();
  let reads = 0;
  return {
    isRepeat(plate, at) {
      const key = canonicalPlate(plate);
      if (key === '') return false;
      const now = at.getTime();
      // Forget plates not seen for a window now and then, so a long-running camera stays small.
      if (++reads % 256 === 0) {
        for (const [other, seen] of lastSeen) if (now - seen >= windowMs) lastSeen.delete(other);
      }
      const previous = lastSeen.get(key);
      lastSeen.set(key, previous === undefined ? now : Math.max(previous, now));
      return previous !== undefined && Math.abs(now - previous) < windowMs;
    },
  };
}
