import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bestFitOrder,
  computeDayAvailability,
  holdsBay,
  isBayCompatible,
  type AvailabilityBay,
  type BusyInterval,
  type CompatibilityBay,
  type SlotWindow,
} from './availability';
import { DEFAULT_OPERATING_HOURS } from './constants';
import { BOOKING_STATUSES } from './enums';
import { buildSlotGrid, findSlot } from './slot-grid';

const DAY = '2026-06-01'; // a Monday: 06:00..21:30 in UTC
const LONG_AGO = new Date('2026-01-01T00:00:00Z');
const at = (time: string) => new Date(`${DAY}T${time}:00Z`);

function dayGrid(durationMin = 30) {
  return buildSlotGrid({ date: DAY, timeZone: 'UTC', operatingHours: DEFAULT_OPERATING_HOURS, durationMin, now: LONG_AGO });
}

const bay = (id: string, siteId = 'north', heightClearanceM = 4.5, name = id): AvailabilityBay => ({
  id,
  siteId,
  name,
  heightClearanceM,
});
const busy = (bayId: string | null, start: string, end: string, siteId = 'north'): BusyInterval => ({
  bayId,
  siteId,
  start: at(start),
  end: at(end),
});

/** How many bays are free for one slot. */
const freeBaysAt = (slot: SlotWindow, bays: AvailabilityBay[], intervals: BusyInterval[]) =>
  computeDayAvailability({ slots: [slot], bays, busy: intervals })[0].freeBays;

/** One slot [start, end) on DAY, bookable. */
const window = (start: string, end: string): SlotWindow => ({ start: at(start), end: at(end), bookable: true });

describe('holdsBay', () => {
  it('releases the bay only for declined, cancelled and no-show bookings', () => {
    const released = BOOKING_STATUSES.filter((status) => !holdsBay(status));
    expect(released).toEqual(['declined', 'cancelled', 'no_show']);
    expect(holdsBay('pending')).toBe(true);
    expect(holdsBay('overstay')).toBe(true);
  });
});

describe('isBayCompatible', () => {
  const base: CompatibilityBay = {
    active: true,
    siteActive: true,
    heightClearanceM: 4.2,
    lengthM: 18,
    features: ['refrigerated'],
  };
  const van = { heightM: 2.5 };

  it('needs an active bay at an active site', () => {
    expect(isBayCompatible(base, van)).toBe(true);
    expect(isBayCompatible({ ...base, active: false }, van)).toBe(false);
    expect(isBayCompatible({ ...base, siteActive: false }, van)).toBe(false);
  });

  it('needs clearance at least the vehicle height (equal fits, in whole millimetres)', () => {
    expect(isBayCompatible(base, { heightM: 4.2 })).toBe(true);
    expect(isBayCompatible(base, { heightM: 4.21 })).toBe(false);
    expect(isBayCompatible({ ...base, heightClearanceM: 0.1 + 0.2 }, { heightM: 0.3 })).toBe(true);
  });

  it('needs enough length when both bay and vehicle say theirs', () => {
    expect(isBayCompatible(base, { heightM: 3, lengthM: 18 })).toBe(true);
    expect(isBayCompatible(base, { heightM: 3, lengthM: 26 })).toBe(false);
    expect(isBayCompatible(base, { heightM: 3, lengthM: null })).toBe(true);
    expect(isBayCompatible({ ...base, lengthM: null }, { heightM: 3, lengthM: 26 })).toBe(true);
  });

  it('needs every special access need among the bay features', () => {
    const multi = { ...base, features: ['refrigerated', 'hazardous', 'oversize'] };
    expect(isBayCompatible(multi, { ...van, specialAccessNeeds: [] })).toBe(true);
    expect(isBayCompatible(multi, { ...van, specialAccessNeeds: ['refrigerated', 'oversize'] })).toBe(true);
    expect(isBayCompatible(multi, { ...van, specialAccessNeeds: ['refrigerated', 'escort'] })).toBe(false);
    expect(isBayCompatible({ ...base, features: [] }, { ...van, specialAccessNeeds: ['hazardous'] })).toBe(false);
  });
});

describe('bestFitOrder', () => {
  it('puts the lowest sufficient clearance first, then names in natural order', () => {
    const bays = [
      bay('a', 'north', 5.5, 'N-10'),
      bay('b', 'north', 4.2, 'N-10'),
      bay('c', 'north', 5.5, 'N-2'),
      bay('d', 'north', 4.2, 'n-1'),
    ];
    expect(bestFitOrder(bays).map((b) => b.id)).toEqual(['d', 'b', 'c', 'a']);
  });

  it('does not change its input', () => {
    const bays = [bay('x', 'north', 5), bay('y', 'north', 4)];
    bestFitOrder(bays);
    expect(bays.map((b) => b.id)).toEqual(['x', 'y']);
  });
});

describe('computeDayAvailability', () => {
  it('counts every bay as free on an empty day', () => {
    const result = computeDayAvailability({ slots: dayGrid(), bays: [bay('b1'), bay('b2')], busy: [] });
    expect(result).toHaveLength(32);
    expect(result.every((slot) => slot.freeBays === 2 && slot.available)).toBe(true);
  });

  it('keeps the slot fields and lists free bays in best-fit order', () => {
    const bays = [bay('tall', 'north', 5.5, 'N-1'), bay('low', 'north', 4.2, 'N-9')];
    const [slot] = computeDayAvailability({ slots: [findSlot(dayGrid(), '09:00')!], bays, busy: [] });
    expect(slot).toMatchObject({ label: '09:00', freeBays: 2, available: true, freeBayIds: ['low', 'tall'] });
  });

  it('a booking ending exactly at the slot start does not block it', () => {
    expect(freeBaysAt(window('10:00', '10:30'), [bay('b1')], [busy('b1', '09:00', '10:00')])).toBe(1);
  });

  it('a blackout starting exactly at the slot end does not block it', () => {
    expect(freeBaysAt(window('10:00', '10:30'), [bay('b1')], [busy('b1', '10:30', '11:00')])).toBe(1);
  });

  it('anything overlapping by a minute blocks', () => {
    const bays = [bay('b1')];
    const slots = [window('10:00', '10:30')];
    expect(computeDayAvailability({ slots, bays, busy: [busy('b1', '09:00', '10:01')] })[0].freeBays).toBe(0);
    expect(computeDayAvailability({ slots, bays, busy: [busy('b1', '10:29', '12:00')] })[0].freeBays).toBe(0);
    expect(computeDayAvailability({ slots, bays, busy: [busy('b1', '10:10', '10:20')] })[0].freeBays).toBe(0);
    expect(computeDayAvailability({ slots, bays, busy: [busy('b1', '08:00', '18:00')] })[0].freeBays).toBe(0);
  });

  it('does not offer a 240-minute request into a 60-minute gap', () => {
    const busyDay = [busy('b1', '06:00', '09:00'), busy('b1', '10:00', '14:00')];
    const long = computeDayAvailability({ slots: dayGrid(240), bays: [bay('b1')], busy: busyDay });
    expect(findSlot(long, '09:00')).toMatchObject({ freeBays: 0, available: false });
    expect(long.filter((slot) => slot.available).map((slot) => slot.label)[0]).toBe('14:00');
    const short = computeDayAvailability({ slots: dayGrid(60), bays: [bay('b1')], busy: busyDay });
    expect(findSlot(short, '09:00')).toMatchObject({ freeBays: 1, available: true });
    expect(findSlot(short, '09:30')).toMatchObject({ freeBays: 0, available: false });
  });

  it('a site-wide blackout blocks every bay of its site and no other', () => {
    const bays = [bay('n1', 'north'), bay('n2', 'north'), bay('s1', 'south')];
    const siteWide = [busy(null, '11:00', '13:00', 'north')];
    const [slot] = computeDayAvailability({ slots: [window('12:00', '12:30')], bays, busy: siteWide });
    expect(slot).toMatchObject({ freeBays: 1, freeBayIds: ['s1'], available: true });
  });

  it('site-wide blackouts also respect the half-open edges', () => {
    const slots = [window('12:00', '12:30')];
    const bays = [bay('n1')];
    expect(computeDayAvailability({ slots, bays, busy: [busy(null, '11:00', '12:00')] })[0].freeBays).toBe(1);
    expect(computeDayAvailability({ slots, bays, busy: [busy(null, '12:30', '13:00')] })[0].freeBays).toBe(1);
  });

  it('never makes an unbookable slot available, but still counts its free bays', () => {
    const slots = buildSlotGrid({ date: DAY, timeZone: 'UTC', operatingHours: DEFAULT_OPERATING_HOURS, now: at('07:10') });
    const result = computeDayAvailability({ slots, bays: [bay('b1')], busy: [] });
    expect(findSlot(result, '09:00')).toMatchObject({ bookable: false, reason: 'too_soon', freeBays: 1, available: false });
    expect(findSlot(result, '09:30')).toMatchObject({ bookable: true, freeBays: 1, available: true });
  });

  it('has nothing free when no bay is compatible', () => {
    const result = computeDayAvailability({ slots: dayGrid(), bays: [], busy: [] });
    expect(result.every((slot) => slot.freeBays === 0 && !slot.available && slot.freeBayIds.length === 0)).toBe(true);
  });

  it('ignores empty intervals and intervals of bays it was not given', () => {
    const busyDay = [busy('b1', '10:15', '10:15'), busy('b1', '11:00', '10:00'), busy('other', '08:00', '20:00')];
    const [slot] = computeDayAvailability({ slots: [window('10:00', '10:30')], bays: [bay('b1')], busy: busyDay });
    expect(slot.freeBays).toBe(1);
  });

  it('handles overlapping and touching busy intervals on one bay', () => {
    const busyDay = [
      busy('b1', '08:00', '09:00'),
      busy('b1', '09:00', '09:30'),
      busy('b1', '08:30', '09:15'),
      busy('b1', '11:00', '12:00'),
    ];
    const result = computeDayAvailability({ slots: dayGrid(90), bays: [bay('b1')], busy: busyDay });
    const free = result.filter((slot) => slot.freeBays === 1).map((slot) => slot.label);
    expect(free.slice(0, 3)).toEqual(['06:00', '06:30', '09:30']);
    expect(free).not.toContain('10:00');
    expect(free).toContain('12:00');
  });

  // How long this takes is bench/availability-compute.ts's figure (it was a < 1 s assertion here).
  it('answers a busy week, 100 bays × 32 slots × 20,000 intervals, as the obvious definition does', () => {
    const bays = Array.from({ length: 100 }, (_, i) => bay(`b${i}`, i % 2 ? 'north' : 'south', 3 + (i % 10) / 4, `B-${i}`));
    // A quarter-hour each at a random bay and minute of the week around the day (so the day is
    // partly free), one in a thousand on a whole site; a seeded generator, the same every run.
    let seed = 1;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    const intervals: BusyInterval[] = Array.from({ length: 20_000 }, (_, i) => {
      const b = Math.floor(random() * 100);
      const start = at('00:00').getTime() + Math.floor((random() * 7 - 3) * 24 * 60) * 60_000;
      return {
        bayId: i % 1000 === 0 ? null : `b${b}`,
        siteId: b % 2 ? 'north' : 'south',
        start: new Date(start),
        end: new Date(start + 15 * 60_000),
      };
    });
    const slots = dayGrid(60);
    const result = computeDayAvailability({ slots, bays, busy: intervals });
    expect(result).toHaveLength(32);
    // The naive way does ~64M comparisons for the whole day: three slots of it are enough here.
    for (const i of [0, 15, 31]) {
      expect(result[i], `slot ${i}`).toEqual(naiveAvailability([slots[i]!], bays, intervals)[0]);
    }
    expect(result.some((slot) => slot.freeBays > 0 && slot.freeBays < 100)).toBe(true);
  });
});

/** The obvious O(B·S·I) definition, to check the indexed one against. */
function naiveAvailability(slots: SlotWindow[], bays: AvailabilityBay[], intervals: BusyInterval[]) {
  return slots.map((slot) => {
    const freeBayIds = bestFitOrder(bays)
      .filter(
        (b) =>
          !intervals.some(
            (interval) =>
              (interval.bayId === b.id || (interval.bayId === null && interval.siteId === b.siteId)) &&
              interval.start < interval.end && // an empty [t, t) occupies nothing
              interval.start < slot.end &&
              interval.end > slot.start,
          ),
      )
      .map((b) => b.id);
    return { ...slot, freeBays: freeBayIds.length, available: slot.bookable && freeBayIds.length > 0, freeBayIds };
  });
}

describe('computeDayAvailability agrees with the naive definition', () => {
  // Times on a 5-minute grid over one day so edges coincide often.
  const minuteOfDay = fc.integer({ min: 0, max: 288 }).map((step) => step * 5);
  const instant = (minutes: number) => new Date(at('00:00').getTime() + minutes * 60_000);
  const bayIds = ['b0', 'b1', 'b2', 'b3', 'b4', 'b5'];
  const sites = ['north', 'south'];

  const baysArb = fc.uniqueArray(fc.constantFrom(...bayIds), { minLength: 0, maxLength: bayIds.length }).chain((ids) =>
    fc.tuple(
      ...ids.map((id) =>
        fc
          .record({
            siteId: fc.constantFrom(...sites),
            heightClearanceM: fc.constantFrom(3.5, 4.2, 5.5),
            name: fc.constantFrom('N-1', 'N-2', 'N-10', 'S-1'),
          })
          .map((rest) => ({ id, ...rest })),
      ),
    ),
  );
  const intervalArb = fc
    .record({
      bayId: fc.option(fc.constantFrom(...bayIds, 'ghost'), { nil: null, freq: 4 }),
      siteId: fc.constantFrom(...sites),
      from: minuteOfDay,
      length: fc.integer({ min: -2, max: 60 }).map((step) => step * 5),
    })
    .map(({ bayId, siteId, from, length }) => ({ bayId, siteId, start: instant(from), end: instant(from + length) }));
  const slotArb = fc
    .record({ from: minuteOfDay, length: fc.integer({ min: 3, max: 96 }).map((step) => step * 5), bookable: fc.boolean() })
    .map(({ from, length, bookable }) => ({ start: instant(from), end: instant(from + length), bookable }));

  it('on random bays, bookings, blackouts and slots', () => {
    fc.assert(
      fc.property(
        baysArb,
        fc.array(intervalArb, { maxLength: 60 }),
        fc.array(slotArb, { maxLength: 40 }),
        (bays, intervals, slots) => {
          const expected = naiveAvailability(slots, bays, intervals);
          expect(computeDayAvailability({ slots, bays, busy: intervals })).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
