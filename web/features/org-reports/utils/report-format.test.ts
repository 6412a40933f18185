import { describe, expect, it } from 'vitest';
import { formatPercentValue, toPercent } from './report-format';

describe('formatPercentValue (chart values and axis ticks)', () => {
  it('shows stacked shares that add up to just over 100 as "100.1%", not the float', () => {
    // Early, on time and late of one row, each rounded to 0.1 %: their stack ends at a float just over 100.
    const stackTop = [toPercent(0)!, toPercent(0.002)!, toPercent(0.999)!].reduce((a, b) => a + b, 0);
    expect(String(stackTop)).toBe('100.10000000000001');
    expect(formatPercentValue(stackTop)).toBe('100.1%');
    expect(formatPercentValue(100.10000000000001)).toBe('100.1%');
  });

  it('keeps whole and one-decimal values as they are', () => {
    expect(formatPercentValue(0)).toBe('0%');
    expect(formatPercentValue(50)).toBe('50%');
    expect(formatPercentValue(62.5)).toBe('62.5%');
    expect(formatPercentValue(33.35)).toMatch(/^33\.[34]%$/);
  });
});
