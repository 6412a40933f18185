import { describe, expect, it } from 'vitest';
import type { AffectedOutcome } from '../../../../domain/affected-bookings';
import { hasUnresolved, summarizeOutcomes } from './bay-outcomes';

const outcome = (tsrNumber: string, kind: AffectedOutcome['outcome'], message: string | null = null): AffectedOutcome => ({
  id: tsrNumber,
  tsrNumber,
  outcome: kind,
  bayName: null,
  message,
});

const NO_BAY = 'No other compatible bay is free at that time';

describe('summarizeOutcomes', () => {
  it('counts each outcome and says why a booking could not be moved', () => {
    const outcomes = [outcome('TSR-1', 'moved'), outcome('TSR-2', 'moved'), outcome('TSR-3', 'not_moved', NO_BAY)];
    expect(summarizeOutcomes(outcomes)).toBe(`3 bookings: 2 moved to another bay, 1 could not be moved (TSR-3: ${NO_BAY}).`);
    expect(hasUnresolved(outcomes)).toBe(true);
  });

  it('names the first three bookings left behind and counts the rest', () => {
    const outcomes = ['A', 'B', 'C', 'D', 'E'].map((tsr) => outcome(tsr, 'not_moved', 'busy'));
    expect(summarizeOutcomes(outcomes)).toBe('5 bookings could not be moved (A: busy; B: busy; C: busy; 2 more).');
  });

  it('says it in one phrase when every booking went the same way', () => {
    expect(summarizeOutcomes([outcome('TSR-4', 'cancelled')])).toBe('1 booking cancelled.');
    expect(summarizeOutcomes([outcome('TSR-5', 'kept'), outcome('TSR-6', 'kept')])).toBe('2 bookings kept on this bay.');
    expect(summarizeOutcomes([outcome('TSR-7', 'moved')])).toBe('1 booking moved to another bay.');
    expect(hasUnresolved([outcome('TSR-7', 'moved')])).toBe(false);
  });

  it('says nothing when no booking was affected', () => {
    expect(summarizeOutcomes([])).toBe('');
    expect(hasUnresolved([])).toBe(false);
  });
});
