import { describe, expect, it } from 'vitest';
import {
  buildPlateIndex,
  canonicalPlate,
  createReadDeduper,
  isPlausiblePlate,
  matchPlate,
  normalisePlate,
  plateSimilarity,
} from './plate-match';

type Vehicle = { id: string; plate: string };
const vehicles: Vehicle[] = [
  { id: 'semi', plate: 'CFC21A' },
  { id: 'rigid', plate: 'CFC 34B' },
  { id: 'van', plate: 'mhl-45v' },
  { id: 'thirty', plate: 'SCT30S' },
  { id: 'thirty-one', plate: 'SCT31S' },
];
const options = { threshold: 0.8 };

describe('normalising and folding confusions', () => {
  it('upper-cases and keeps only letters and digits', () => {
    expect(normalisePlate(' cfc-21 a. ')).toBe('CFC21A');
    expect(normalisePlate('Ä-12')).toBe('A12');
    expect(normalisePlate(' -. ')).toBe('');
  });

  it('folds O/0, I/1, S/5, B/8 and Z/2 onto the digit so equivalent reads compare equal', () => {
    expect(canonicalPlate('OISBZ')).toBe('01582');
    expect(canonicalPlate('bz05 ois')).toBe(canonicalPlate('8205 015'));
    expect(canonicalPlate('SCT30S')).toBe('5CT305');
    // Other letters stay letters.
    expect(canonicalPlate('ACDEFGHJKLMNPQRTUVWXY')).toBe('ACDEFGHJKLMNPQRTUVWXY');
  });

  it('scores confusions as free and other changes by edit distance over the longer plate', () => {
    expect(plateSimilarity('SCT30S', '5CT3O5')).toBe(1);
    expect(plateSimilarity('cfc 21a', 'CFC21A')).toBe(1);
    expect(plateSimilarity('CFC21A', 'CFC21')).toBeCloseTo(5 / 6);
    expect(plateSimilarity('CFC21A', 'CFC24A')).toBeCloseTo(5 / 6);
    expect(plateSimilarity('CFC21A', 'XYZ987')).toBe(0);
    expect(plateSimilarity('', 'CFC21A')).toBe(0);
  });
});

describe('matchPlate', () => {
  it('matches a read regardless of case, spacing and punctuation', () => {
    const result = matchPlate('mhl 45 v', vehicles, options);
    expect(result.read).toBe('MHL45V');
    expect(result.candidates[0]).toMatchObject({ plate: 'MHL45V', score: 1, isMatch: true });
    expect(result.candidates[0]!.vehicle.id).toBe('van');
    expect(result.confident).toBe(true);
  });

  it('matches through OCR confusions in either direction', () => {
    // The plate has letters where the read has digits, and the other way round.
    expect(matchPlate('CFC2IA', vehicles, options).candidates[0]!.vehicle.id).toBe('semi');
    expect(matchPlate('CFC348', vehicles, options).candidates[0]!.vehicle.id).toBe('rigid');
    const read = matchPlate('5CT3O5', vehicles, options);
    expect(read.candidates[0]).toMatchObject({ plate: 'SCT30S', score: 1 });
    expect(read.confident).toBe(true);
  });

  it('lists close plates as candidates, best first, with whether each reaches the threshold', () => {
    const result = matchPlate('SCT30S', vehicles, options);
    expect(result.candidates.map((c) => [c.plate, Number(c.score.toFixed(3)), c.isMatch])).toEqual([
      ['SCT30S', 1, true],
      ['SCT31S', 0.833, true],
    ]);
    // An exact read is clearly ahead of the plate one character away.
    expect(result.confident).toBe(true);
  });

  it('is not confident when a read is as close to two plates', () => {
    // The digit that tells SCT30S from SCT31S was not read.
    const result = matchPlate('SCT3S', vehicles, options);
    expect(result.candidates.slice(0, 2).map((c) => [c.plate, Number(c.score.toFixed(3))])).toEqual([
      ['SCT30S', 0.833],
      ['SCT31S', 0.833],
    ]);
    expect(result.candidates[0]!.isMatch).toBe(true);
    expect(result.confident).toBe(false);
    // Listing one candidate does not hide the tie.
    expect(matchPlate('SCT3S', vehicles, { threshold: 0.8, limit: 1 }).confident).toBe(false);
  });

  it('is not confident when the best is only slightly ahead of the next', () => {
    const close = [{ plate: 'AB12CDE' }, { plate: 'AB12CEF' }];
    // One wrong character against AB12CDE, two against AB12CEF: 6/7 against 5/7.
    const result = matchPlate('AB12CDX', close, { threshold: 0.7 });
    expect(result.candidates.map((c) => c.plate)).toEqual(['AB12CDE', 'AB12CEF']);
    expect(result.confident).toBe(false);
    // With a smaller margin required, the same lead is enough.
    expect(matchPlate('AB12CDX', close, { threshold: 0.7, margin: 0.1 }).confident).toBe(true);
  });

  it('is never confident between plates OCR cannot tell apart, or a plate listed twice', () => {
    expect(matchPlate('SCT30S', [{ plate: 'SCT30S' }, { plate: '5CT3O5' }], options).confident).toBe(false);
    expect(matchPlate('CFC21A', [{ plate: 'CFC21A' }, { plate: 'CFC 21A' }], options).confident).toBe(false);
  });

  it('honours the threshold: a near miss is a candidate but not a match', () => {
    const strict = matchPlate('CFC21', vehicles, { threshold: 0.9 });
    expect(strict.candidates[0]).toMatchObject({ plate: 'CFC21A', isMatch: false });
    expect(strict.confident).toBe(false);
    const lenient = matchPlate('CFC21', vehicles, { threshold: 0.8 });
    expect(lenient.candidates[0]).toMatchObject({ plate: 'CFC21A', isMatch: true });
  });

  it('lists nothing for a read far from every plate, or an empty read', () => {
    expect(matchPlate('XYZ987', vehicles, options)).toEqual({ read: 'XYZ987', candidates: [], confident: false });
    expect(matchPlate(' - ', vehicles, options)).toEqual({ read: '', candidates: [], confident: false });
    expect(matchPlate('CFC21A', [], options).candidates).toEqual([]);
  });

  it('limits the candidates and orders ties by plate', () => {
    const many = ['AAA111', 'AAA112', 'AAA113', 'AAA114'].map((plate) => ({ plate }));
    const result = matchPlate('AAA110', many, { threshold: 0.8, limit: 3 });
    expect(result.candidates.map((c) => c.plate)).toEqual(['AAA111', 'AAA112', 'AAA113']);
  });

  it('reuses an index built once, with a custom plate field', () => {
    const bookings = [
      { bookingId: 1, vehicleRegistration: 'CFC 21A' },
      { bookingId: 2, vehicleRegistration: 'MHL 88R' },
      { bookingId: 3, vehicleRegistration: '   ' },
    ];
    const index = buildPlateIndex(bookings, (b) => b.vehicleRegistration);
    expect(index.size).toBe(2);
    expect(matchPlate('MHL88R', index, options).candidates[0]!.vehicle.bookingId).toBe(2);
    expect(matchPlate('CFC2IA', index, options).candidates[0]!.vehicle.bookingId).toBe(1);
  });

  it('finds the same best candidates with the index as by comparing every plate', () => {
    // A deterministic pseudo-random fleet; the length buckets and early exits must not lose a match.
    let seed = 7;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    };
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const plate = (length: number) => Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    const fleet = Array.from({ length: 400 }, (_, i) => ({ id: i, plate: plate(4 + Math.floor(random() * 5)) }));
    const index = buildPlateIndex(fleet);
    for (let i = 0; i < 100; i++) {
      const read = random() < 0.5 ? fleet[Math.floor(random() * fleet.length)]!.plate.slice(1) + 'X' : plate(5 + Math.floor(random() * 3));
      const expected = fleet
        .map((v) => ({ id: v.id, score: plateSimilarity(read, v.plate) }))
        .filter((c) => c.score >= 0.5)
        .sort((a, b) => b.score - a.score)
        .slice(0, 5)
        .map((c) => c.score);
      expect(matchPlate(read, index, { threshold: 0.8 }).candidates.map((c) => c.score)).toEqual(expected);
    }
  });
});

describe('plausible plates from OCR text', () => {
  it('accepts letters with digits, even when a digit was read as its look-alike letter', () => {
    expect(isPlausiblePlate('CFC 21A')).toBe(true);
    expect(isPlausiblePlate('CFCZIA')).toBe(true);
    expect(isPlausiblePlate('XK21 9QW')).toBe(true);
  });

  it('rejects words, stripes read as letters, and too short or too long reads', () => {
    expect(isPlausiblePlate('HAUL')).toBe(false);
    expect(isPlausiblePlate('III')).toBe(false);
    expect(isPlausiblePlate('1I1')).toBe(false);
    expect(isPlausiblePlate('777')).toBe(false);
    expect(isPlausiblePlate('A7')).toBe(false);
    expect(isPlausiblePlate('ABC1234567X')).toBe(false);
    expect(isPlausiblePlate('')).toBe(false);
  });
});

describe('createReadDeduper', () => {
  const at = (seconds: number) => new Date(Date.UTC(2026, 5, 1, 8, 0, 0) + seconds * 1000);

  it('treats reads of one plate within 60 s as one event, in any spelling OCR gives it', () => {
    const deduper = createReadDeduper();
    expect(deduper.isRepeat('CFC 21A', at(0))).toBe(false);
    expect(deduper.isRepeat('cfc21a', at(5))).toBe(true);
    expect(deduper.isRepeat('CFC2IA', at(30))).toBe(true);
    // Another plate is its own event.
    expect(deduper.isRepeat('MHL88R', at(31))).toBe(false);
  });

  it('slides the window: a plate read continuously stays one event, then is new after 60 s unread', () => {
    const deduper = createReadDeduper(60_000);
    expect(deduper.isRepeat('CFC21A', at(0))).toBe(false);
    expect(deduper.isRepeat('CFC21A', at(50))).toBe(true);
    expect(deduper.isRepeat('CFC21A', at(100))).toBe(true);
    expect(deduper.isRepeat('CFC21A', at(159.999))).toBe(true);
    expect(deduper.isRepeat('CFC21A', at(219.999))).toBe(false);
  });

  it('starts a new event exactly one window after the last read', () => {
    const deduper = createReadDeduper(60_000);
    expect(deduper.isRepeat('CFC21A', at(0))).toBe(false);
    expect(deduper.isRepeat('CFC21A', at(60))).toBe(false);
    expect(deduper.isRepeat('CFC21A', at(61))).toBe(true);
  });

  it('ignores empty reads and keeps working after forgetting old plates', () => {
    const deduper = createReadDeduper(1_000);
    expect(deduper.isRepeat(' ', at(0))).toBe(false);
    expect(deduper.isRepeat(' ', at(0))).toBe(false);
    for (let i = 0; i < 600; i++) deduper.isRepeat(`AB${i}C`, at(i));
    expect(deduper.isRepeat('AB599C', at(599.5))).toBe(true);
    expect(deduper.isRepeat('AB1C', at(600))).toBe(false);
  });
});
