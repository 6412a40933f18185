import { describe, expect, it } from 'vitest';
import type { PlateCandidateDto } from '../../../../domain/plate-reads';
import { currentCandidate } from './current-candidate';
import { readSourceLabel, readTime, siteDateTime } from './format';

const read: PlateCandidateDto = {
  bookingId: 'b1',
  version: 3,
  tsrNumber: 'TSR-1',
  tenantName: 'Tenant',
  vehicleRegistration: 'ABC 123',
  bayName: 'N-01',
  startTime: '2026-11-23T02:00:00.000Z',
  status: 'approved',
  score: 1,
  action: 'check_in',
};

describe('currentCandidate', () => {
  it('keeps the read’s answer while nothing newer is known', () => {
    expect(currentCandidate(read)).toBe(read);
    expect(currentCandidate(read, undefined, { status: 'approved', version: 3 })).toBe(read);
    // An older version (a list fetched before the read) does not win.
    expect(currentCandidate(read, { status: 'pending', version: 2 })).toBe(read);
  });

  it('takes the newest state and the move it offers', () => {
    expect(currentCandidate(read, { status: 'checked_in', version: 4 })).toMatchObject({ status: 'checked_in', version: 4, action: 'none' });
    expect(currentCandidate(read, { status: 'checked_in', version: 4 }, { status: 'in_progress', version: 5 })).toMatchObject({ status: 'in_progress', version: 5, action: 'check_out' });
    expect(currentCandidate(read, { status: 'completed', version: 7 }, { status: 'in_progress', version: 5 })).toMatchObject({ status: 'completed', action: 'none' });
  });
});

describe('scanner formats', () => {
  const now = new Date('2026-11-23T03:00:00Z');

  it('shows times at the site, with the day when it is not today there', () => {
    expect(siteDateTime('2026-11-23T02:30:00Z', 'UTC', now)).toBe('02:30');
    expect(siteDateTime('2026-11-24T00:30:00Z', 'UTC', now)).toBe('Tue 24 Nov 00:30');
    // 14:00 in Sydney (UTC+11) on the 23rd is today there too.
    expect(siteDateTime('2026-11-23T03:00:00Z', 'Australia/Sydney', now)).toBe('14:00');
    expect(readTime('2026-11-23T02:59:07Z', 'UTC', now)).toBe('02:59:07');
    expect(readTime('2026-11-22T02:59:07Z', 'UTC', now)).toBe('Sun 22 Nov 02:59');
  });

  it('says how a plate was read', () => {
    expect(readSourceLabel({ source: 'typed', confidence: null, camera: null })).toBe('Typed');
    expect(readSourceLabel({ source: 'camera', confidence: 0.874, camera: null })).toBe('Device camera · 87% sure');
    expect(readSourceLabel({ source: 'webhook', confidence: 0.9, camera: 'Gate 1' })).toBe('Site camera ‘Gate 1’ · 90% sure');
  });
});
