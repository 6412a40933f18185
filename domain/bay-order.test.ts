import { describe, expect, it } from 'vitest';
import { compareBayNames, compareCodePoints, NATURAL_DIGIT_WIDTH, naturalBayKey } from './bay-order';
import { MAX_BAY_NAME_LENGTH } from './org-bays';

const pad = (digits: string) => digits.padStart(NATURAL_DIGIT_WIDTH, '0');
const sorted = (names: string[]) => [...names].sort(compareBayNames);

describe('naturalBayKey', () => {
  it('pads digit runs without their leading zeros, folds ASCII capitals and drops accents', () => {
    expect(naturalBayKey('B-10')).toBe(`b-${pad('10')}`);
    expect(naturalBayKey('A-01')).toBe(naturalBayKey('a-1'));
    expect(naturalBayKey('Ä-1')).toBe(naturalBayKey('A-1'));
    expect(naturalBayKey('É')).toBe('e');
    expect(naturalBayKey('e\u0301')).toBe('e');
    expect(naturalBayKey('')).toBe('');
    expect(naturalBayKey('0')).toBe(pad(''));
  });

  it('keeps the case of letters outside ASCII and a digit run longer than the width whole', () => {
    expect(naturalBayKey('Б-1')).toBe(`Б-${pad('1')}`);
    expect(naturalBayKey(`X${'1'.repeat(45)}`)).toBe(`x${'1'.repeat(45)}`);
  });

  it('fits every digit run of a valid name', () => {
    expect(NATURAL_DIGIT_WIDTH).toBeGreaterThanOrEqual(MAX_BAY_NAME_LENGTH);
  });
});

describe('compareBayNames', () => {
  it('orders numbers by value and ignores ASCII case and accents', () => {
    expect(sorted(['B-10', 'b-2', 'B-1', '10', '2', 'Ä-3', 'a-20'])).toEqual(['2', '10', 'Ä-3', 'a-20', 'B-1', 'b-2', 'B-10']);
    expect(compareBayNames('A-01', 'a-1')).toBe(0);
  });

  it('orders separators by code point: space, hyphen, digit, underscore', () => {
    expect(sorted(['A_1', 'A1', 'A-1', 'A 1'])).toEqual(['A 1', 'A-1', 'A1', 'A_1']);
  });
});

describe('compareCodePoints', () => {
  it('compares code points, not UTF-16 units (as the "C" collation compares UTF-8 bytes)', () => {
    // '𝔸' is U+1D538 (a surrogate pair, 0xD835 0xDD38) and 'Ａ' U+FF21: 0xD835 < 0xFF21 in UTF-16.
    expect('𝔸' < 'Ａ').toBe(true);
    expect(compareCodePoints('𝔸', 'Ａ')).toBeGreaterThan(0);
    expect(compareCodePoints('a', 'ab')).toBeLessThan(0);
    expect(compareCodePoints('ab', 'ab')).toBe(0);
    expect(compareCodePoints('😀', '😁')).toBeLessThan(0);
  });
});
