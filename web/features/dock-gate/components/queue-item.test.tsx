import { describe, expect, it } from 'vitest';
import { formatWaiting, waitedMinutes, type QueueItem } from './queue-item';

// The queue's waiting time ticks on the screen's clock between refetches.

const item = (checkedInAt: string | null, waitingMinutes = 0) => ({ checkedInAt, waitingMinutes }) as QueueItem;

describe('waitedMinutes', () => {
  it('counts whole minutes from the check-in on the screen’s clock', () => {
    const now = Date.parse('2026-11-23T00:00:00Z');
    expect(waitedMinutes(item('2026-11-22T23:59:30Z'), now)).toBe(0);
    expect(waitedMinutes(item('2026-11-22T23:59:00Z'), now)).toBe(1);
    expect(waitedMinutes(item('2026-11-22T23:47:10Z'), now)).toBe(12);
    // The same item ten minutes later, without a refetch.
    expect(waitedMinutes(item('2026-11-22T23:47:10Z'), now + 10 * 60_000)).toBe(22);
  });

  it('never goes below zero when the screen’s clock is behind, and falls back to the server’s count', () => {
    const now = Date.parse('2026-11-23T00:00:00Z');
    expect(waitedMinutes(item('2026-11-23T00:01:00Z'), now)).toBe(0);
    expect(waitedMinutes(item(null, 7), now)).toBe(7);
  });
});

describe('formatWaiting', () => {
  it('reads as minutes, then hours and minutes', () => {
    expect(formatWaiting(0)).toBe('under 1 min');
    expect(formatWaiting(1)).toBe('1 min');
    expect(formatWaiting(59)).toBe('59 min');
    expect(formatWaiting(60)).toBe('1 h 00 min');
    expect(formatWaiting(125)).toBe('2 h 05 min');
  });
});
