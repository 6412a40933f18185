import { describe, expect, it } from 'vitest';
import type { GateBooking } from '../../../../domain/gate';
import { siteLists } from './site-lists';

const booking = (id: string, status: GateBooking['status'], over: Partial<GateBooking> = {}): GateBooking => ({
  id,
  version: 1,
  status,
  tsrNumber: `TSR-${id}`,
  tenantName: 'Acme',
  vehicleType: 'van',
  vehicleRegistration: `REG${id}`,
  bayId: 'bay',
  bayName: 'N-01',
  startTime: '2026-11-23T01:00:00.000Z',
  endTime: '2026-11-23T01:30:00.000Z',
  checkedInAt: null,
  startedAt: null,
  source: 'portal',
  isLate: false,
  actions: [],
  ...over,
});

describe('siteLists', () => {
  it('lists each vehicle where staff look for it', () => {
    const lateEarly = booking('late1', 'approved', { isLate: true, startTime: '2026-11-23T00:00:00.000Z' });
    const lateLater = booking('late2', 'approved', { isLate: true, startTime: '2026-11-23T00:30:00.000Z' });
    const coming = booking('next', 'approved', { startTime: '2026-11-23T03:00:00.000Z' });
    const pending = booking('pend', 'pending', { startTime: '2026-11-23T03:30:00.000Z' });
    const waiting = booking('in', 'checked_in');
    const atBay = booking('bay', 'in_progress');
    const over = booking('over', 'overstay');
    const done = booking('done', 'completed');
    const lists = siteLists({
      // The gate lists today's bookings (a late one among them) and the next hours' arrivals (the late ones too).
      live: [lateLater, waiting, atBay, over, done, coming],
      upcoming: [lateLater, lateEarly, coming, pending],
    });
    expect(lists.arrivals.map((b) => b.id)).toEqual(['next', 'pend']);
    expect(lists.late.map((b) => b.id)).toEqual(['late1', 'late2']);
    expect(lists.onSite.map((b) => b.id)).toEqual(['in', 'bay', 'over']);
    expect(lists.overstays.map((b) => b.id)).toEqual(['over']);
  });

  it('gives empty lists for a quiet site', () => {
    expect(siteLists({ live: [], upcoming: [] })).toEqual({ arrivals: [], onSite: [], overstays: [], late: [] });
  });
});
