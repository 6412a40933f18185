import { describe, expect, it } from 'vitest';
import { bestLayoutFit, choosePlate, fitLayout, isLayoutPlate, settleLookAlikes, spaceAsLayout } from './plate-layouts';

describe('plate layouts', () => {
  it('fits a read to a layout, swapping look-alikes into letter and digit slots', () => {
    expect(fitLayout('277999', 'LLL DDD')).toEqual({ plate: 'ZZZ999', layout: 'LLL DDD', swaps: 3 });
    expect(fitLayout('B051SZI', 'LLDD LLL')).toEqual({ plate: 'BO51SZI', layout: 'LLDD LLL', swaps: 1 });
    expect(fitLayout('OIS8O5', 'LLL DDD')).toEqual({ plate: 'OIS805', layout: 'LLL DDD', swaps: 1 });
    // A letter with no digit look-alike in a digit slot does not fit (CFC 21A is no LLL DDD plate).
    expect(fitLayout('CFC21A', 'LLL DDD')).toBeNull();
    expect(bestLayoutFit('CFC21A')).toBeNull();
    expect(fitLayout('AB12CDE', 'LLL DDD')).toBeNull();
    expect(spaceAsLayout('AB12CDE', 'LLDD LLL')).toBe('AB12 CDE');
  });

  it('prefers the layout needing the fewest swaps', () => {
    expect(bestLayoutFit('AB12CDE')).toMatchObject({ plate: 'AB12CDE', layout: 'LLDD LLL', swaps: 0 });
    expect(isLayoutPlate('AB12CDE')).toBe(true);
    expect(isLayoutPlate('XK219QW')).toBe(true); // XK 219 QW
    expect(isLayoutPlate('KLM2O5')).toBe(false); // needs a swap: KLM 205
  });
});

describe('choosePlate', () => {
  it('pools the passes: agreement and layout validity beat one confident odd read', () => {
    const chosen = choosePlate([
      { text: 'Z77999', confidence: 90 },
      { text: 'ZZZ 999', confidence: 80 },
      { text: 'ZZZ999', confidence: 85 },
    ]);
    expect(chosen[0]).toMatchObject({ plate: 'ZZZ999', layout: 'LLL DDD', passes: 3 });
  });

  it('keeps a plate of no listed layout as read, and ranks it by its passes', () => {
    const chosen = choosePlate([
      { text: 'CFC 21A', confidence: 95 },
      { text: 'CFC21A', confidence: 95 },
      { text: 'CFC214', confidence: 60 },
    ]);
    expect(chosen.map((c) => c.plate)).toEqual(['CFC21A', 'CFC214']);
  });

  it('counts a read of the wrong length a tenth when the row’s character count is known', () => {
    const chosen = choosePlate(
      [
        { text: 'GR25YF', confidence: 98 },
        { text: 'GR25YF', confidence: 98 },
        { text: 'GR25YFI', confidence: 90 },
      ],
      7,
    );
    expect(chosen[0]!.plate).toBe('GR25YFI');
  });

  it('drops what is no plate: stripes, words, nothing', () => {
    expect(choosePlate([{ text: 'IIIIII', confidence: 99 }])).toEqual([]);
    expect(choosePlate([{ text: 'HAUL', confidence: 99 }])).toEqual([]);
    expect(choosePlate([{ text: '', confidence: 0 }])).toEqual([]);
  });
});

describe('settleLookAlikes', () => {
  const plain = { aspect: 0.7, topLean: 0 };
  it('tells a 1 from an I by its flag, and an O from a 0 by its width, where two layouts dispute them', () => {
    // NLD 8591 (LLL DDDD) or NLD 859I (LLL DDDL): the last shape has no flag, so it is an I.
    expect(settleLookAlikes('NLD8591', [plain, plain, plain, plain, plain, plain, { aspect: 0.45, topLean: 0 }])).toBe('NLD859I');
    expect(settleLookAlikes('NLD8591', [plain, plain, plain, plain, plain, plain, { aspect: 0.5, topLean: 0.1 }])).toBe('NLD8591');
    // DEI 4290 or DEI 429O: the last shape is far wider than the digits, so it is an O.
    expect(settleLookAlikes('DEI4290', [plain, plain, plain, plain, plain, plain, { aspect: 1.0, topLean: 0 }])).toBe('DEI429O');
    expect(settleLookAlikes('DEI4290', [plain, plain, plain, plain, plain, plain, { aspect: 0.7, topLean: 0 }])).toBe('DEI4290');
  });

  it('keeps the plate when the shape cannot tell, or when no other layout disputes a slot', () => {
    expect(settleLookAlikes('DEI4290', [plain, plain, plain, plain, plain, plain, { aspect: 0.79, topLean: 0 }])).toBe('DEI4290');
    expect(settleLookAlikes('CFC21A', [plain, plain, plain, plain, { aspect: 0.4, topLean: 0 }, plain])).toBe('CFC21A');
    expect(settleLookAlikes('NLD8591', [plain])).toBe('NLD8591');
  });
});
