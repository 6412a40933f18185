import { describe, expect, it } from 'vitest';
import { formatCount, formatDuration, formatUsdCompact } from './format';

describe('format', () => {
  it('formats counts with thousands separators', () => {
    expect(formatCount(1240)).toBe('1,240');
  });

  it('formats revenue compactly in USD, a dash when absent', () => {
    expect(formatUsdCompact(24_500)).toBe('$24.5K');
    expect(formatUsdCompact(398)).toBe('$398');
    expect(formatUsdCompact(null)).toBe('—');
  });

  it('formats durations with the two largest units', () => {
    expect(formatDuration(45)).toBe('45s');
    expect(formatDuration(125)).toBe('2m');
    expect(formatDuration(2 * 3600 + 15 * 60)).toBe('2h 15m');
    expect(formatDuration(3 * 86_400 + 4 * 3600 + 59)).toBe('3d 4h');
  });
});
