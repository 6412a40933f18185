import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPERATING_HOURS } from '../../../domain/constants';
import { createBay, createOrg, createSite } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';

// The site's own today, the booking horizon, and why a day offers nothing.
// Frozen at 2026-11-23 14:00 UTC = Tuesday 24 Nov 01:00 in Sydney: the browser's "today" (UTC)
// is a day behind the site.
const NOW = '2026-11-23T14:00:00Z';

describe.each(databaseKinds)('day notices and the booking horizon on %s', (kind) => {
  let t: TestApp;
  let orgId: string;

  const grid = (body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/public/availability', payload: { orgId, durationMin: 30, vehicleHeightM: 3.5, ...body } });
  const book = (body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/public/bookings',
      payload: {
        orgId,
        tsrNumber: 'TSR-H-1',
        tenantName: 'Horizon Haulage',
        contactName: 'Hal',
        tenantEmail: 'hal@horizon.example',
        slot: '09:00',
        expectedDurationMin: 30,
        vehicleType: 'rigid',
        vehicleRegistration: 'HOR1',
        vehicleHeightM: 3.5,
        driverInductionCompleted: true,
        termsAccepted: true,
        ...body,
      },
    });
  const bookings = async () => Number((await t.ctx.database.query<{ n: number }>('select count(*)::int as n from bookings'))[0]!.n);

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const org = await createOrg(t.ctx.database, { name: 'Horizon Org' });
    orgId = org.id;
    const site = await createSite(t.ctx.database, org.id, {
      name: 'Harbour Dock',
      timeZone: 'Australia/Sydney',
      operatingHours: { ...DEFAULT_OPERATING_HOURS, sun: [] },
    });
    await createBay(t.ctx.database, site, { name: 'H-1', heightClearanceM: 4.6, lengthM: 20, features: ['refrigerated'] });
  });
  afterAll(() => t.close());

  it("answers with the site's today and horizon, not the server's", async () => {
    const res = await grid({ date: '2026-11-25' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ siteToday: '2026-11-24', lastBookableDate: '2027-01-23', notice: null, timeZone: 'Australia/Sydney' });
  });

  it('offers nothing beyond the horizon and says why; the server refuses a booking there', async () => {
    const res = await grid({ date: '2027-01-24' });
    expect(res.statusCode).toBe(200);
    expect(res.json().slots).toEqual([]);
    expect(res.json().notice).toBe('Bookings open up to 60 days ahead: choose a date on or before 23 Jan 2027.');
    expect((await grid({ date: '2027-01-23' })).json().slots.length).toBeGreaterThan(0);
    const refused = await book({ date: '2027-01-24' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'beyond_horizon', message: 'Bookings open up to 60 days ahead: choose a date on or before 23 Jan 2027.' });
    expect(await bookings()).toBe(0);
  });

  it('answers 400, never 500, for the last day of year 9999 with a long duration', async () => {
    const far = await book({ date: '9999-12-31', expectedDurationMin: 150, slot: '21:30' });
    expect(far.statusCode).toBe(400);
    const farGrid = await grid({ date: '9999-12-31', durationMin: 150 });
    expect(farGrid.statusCode).toBe(200);
    expect(farGrid.json().slots).toEqual([]);
    expect(await bookings()).toBe(0);
  });

  it('explains a past day, a closed day and a vehicle no bay can take', async () => {
    expect((await grid({ date: '2026-11-23' })).json().notice).toBe('This date has passed at Harbour Dock (today there is Tue 24 Nov).');
    expect((await grid({ date: '2026-11-29' })).json().notice).toBe('Harbour Dock is closed on Sundays.');
    expect((await grid({ date: '2026-11-25', vehicleHeightM: 5 })).json().notice).toBe(
      'No bay at Horizon Org can take this vehicle: it is 5 m tall and the highest clearance is 4.6 m.',
    );
    expect((await grid({ date: '2026-11-25', vehicleLengthM: 25 })).json().notice).toBe(
      'No bay at Horizon Org can take this vehicle: it is 25 m long and the longest bay is 20 m.',
    );
    expect((await grid({ date: '2026-11-25', specialAccessNeeds: ['hazardous'] })).json().notice).toBe(
      'No bay at Horizon Org offers Hazardous Materials.',
    );
    const refused = await book({ date: '2026-11-25', vehicleHeightM: 5 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toMatchObject({
      code: 'no_compatible_bay',
      message: 'No bay at Horizon Org can take this vehicle: it is 5 m tall and the highest clearance is 4.6 m.',
    });
  });
});
