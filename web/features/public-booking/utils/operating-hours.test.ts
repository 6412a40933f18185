import { describe, expect, it } from 'vitest';
import { DEFAULT_OPERATING_HOURS } from '../../../../domain/constants';
import { summarizeOperatingHours } from './operating-hours';

describe('summarizeOperatingHours', () => {
  it('folds the spec default hours into three rows', () => {
    expect(summarizeOperatingHours(DEFAULT_OPERATING_HOURS)).toMatchObject([
      { days: 'Mon-Fri', hours: '06:00-22:00' },
      { days: 'Sat', hours: '08:00-18:00' },
      { days: 'Sun', hours: '10:00-16:00' },
    ]);
  });

  it('shows closed days and does not fold across different hours', () => {
    expect(
      summarizeOperatingHours({
        ...DEFAULT_OPERATING_HOURS,
        wed: [],
        sat: [],
        sun: [],
      }),
    ).toMatchObject([
      { days: 'Mon-Tue', hours: '06:00-22:00' },
      { days: 'Wed', hours: 'Closed' },
      { days: 'Thu-Fri', hours: '06:00-22:00' },
      { days: 'Sat-Sun', hours: 'Closed' },
    ]);
  });

  it('lists a day\'s several windows in order', () => {
    const split = [{ open: '06:00', close: '12:00' }, { open: '13:00', close: '22:00' }];
    expect(summarizeOperatingHours({ ...DEFAULT_OPERATING_HOURS, mon: split, tue: split })[0]).toMatchObject({ days: 'Mon-Tue', hours: '06:00-12:00, 13:00-22:00' });
  });
});
