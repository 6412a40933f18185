import { describe, expect, it } from 'vitest';
import { toAvailabilityRequest, type AvailabilityCriteria } from './use-booking-availability';

const base: AvailabilityCriteria = {
  orgId: 'org-1',
  date: '2030-01-15',
  durationMin: 30,
  vehicleHeightM: '',
  vehicleLengthM: '',
  vehicleType: '',
  specialAccessNeeds: [],
};

describe('toAvailabilityRequest', () => {
  it('waits for an organization and a date', () => {
    expect(toAvailabilityRequest({ ...base, orgId: null })).toBeNull();
    expect(toAvailabilityRequest({ ...base, date: null })).toBeNull();
  });

  it('sends only what is known', () => {
    expect(toAvailabilityRequest(base)).toEqual({ orgId: 'org-1', date: '2030-01-15', durationMin: 30 });
  });

  it('sends vehicle details and sorted needs', () => {
    expect(
      toAvailabilityRequest({
        ...base,
        vehicleHeightM: 4.2,
        vehicleLengthM: '12.5',
        vehicleType: 'rigid',
        specialAccessNeeds: ['refrigerated', 'escort'],
      }),
    ).toEqual({
      orgId: 'org-1',
      date: '2030-01-15',
      durationMin: 30,
      vehicleHeightM: 4.2,
      vehicleLengthM: 12.5,
      vehicleType: 'rigid',
      specialAccessNeeds: ['escort', 'refrigerated'],
    });
  });

  it('falls back to 30 minutes for a non-number and keeps the duration within 15-480', () => {
    expect(toAvailabilityRequest({ ...base, durationMin: '' })?.durationMin).toBe(30);
    expect(toAvailabilityRequest({ ...base, durationMin: 'abc' })?.durationMin).toBe(30);
    expect(toAvailabilityRequest({ ...base, durationMin: 5 })?.durationMin).toBe(15);
    expect(toAvailabilityRequest({ ...base, durationMin: 900 })?.durationMin).toBe(480);
  });

  it('leaves out heights and lengths that are zero, negative or out of range', () => {
    const r = toAvailabilityRequest({ ...base, vehicleHeightM: 0, vehicleLengthM: -1 });
    expect(r).not.toHaveProperty('vehicleHeightM');
    expect(r).not.toHaveProperty('vehicleLengthM');
    expect(toAvailabilityRequest({ ...base, vehicleHeightM: 99 })).not.toHaveProperty('vehicleHeightM');
  });
});
