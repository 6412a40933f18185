import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AffectedBooking } from '../../../../domain/affected-bookings';
import {
  END_BEFORE_START_MESSAGE,
  WEEKDAYS_REQUIRED_MESSAGE,
  type BlackoutItem,
  type BlackoutOptions,
  type BlackoutSeries,
} from '../../../../domain/org-blackouts';
import { apiError, fakeApi, type ApiCall, type ApiReply } from '../../../test/fake-api';
import { findToast, renderWithProviders } from '../../../test/render';
import { BlackoutFormModal } from './blackout-form-modal';

// The blackout form (issue 9): a one-off or a recurring closure of a site or a bay, checked with
// the shared schema's messages before anything is sent, its plain-words summary, what is sent,
// and the question the server asks when live bookings are in the way.

const ORG = 'org-1';
const SITE = '8f1c2b3a-1d2e-4f3a-9b4c-5d6e7f8a9b0c';
const BAY = '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d';
const ONE_OFF = `POST /api/orgs/${ORG}/blackouts`;
const SERIES = `POST /api/orgs/${ORG}/blackout-series`;

const options: BlackoutOptions = {
  sites: [
    {
      id: SITE,
      name: 'North Terminal',
      timeZone: 'Australia/Sydney',
      active: true,
      today: '2030-03-04',
      bays: [
        { id: BAY, name: 'N-12', active: true },
        { id: '2b3c4d5e-6f7a-4b1c-9d2e-3f4a5b6c7d8e', name: 'N-13', active: false },
      ],
    },
  ],
};

const blackout = (changes: Partial<BlackoutItem> = {}): BlackoutItem => ({
  id: 'blackout-1',
  kind: 'blackout',
  siteId: SITE,
  siteName: 'North Terminal',
  timeZone: 'Australia/Sydney',
  bayId: BAY,
  bayName: 'N-12',
  startTime: '2030-03-04T19:00:00Z',
  endTime: '2030-03-05T01:00:00Z',
  startDate: '2030-03-05',
  startLocal: '06:00',
  endDate: '2030-03-05',
  endLocal: '12:00',
  reason: 'Dock leveller repair',
  series: null,
  status: 'upcoming',
  createdAt: '2030-03-04T00:00:00Z',
  updatedAt: '2030-03-04T00:00:00Z',
  ...changes,
});

const series: BlackoutSeries = {
  id: 'series-1',
  siteId: SITE,
  siteName: 'North Terminal',
  timeZone: 'Australia/Sydney',
  bayId: null,
  bayName: null,
  frequency: 'weekly',
  interval: 1,
  weekdays: ['mon'],
  startsOn: '2030-03-05',
  startLocal: '06:00',
  durationMin: 120,
  until: null,
  reason: null,
  summary: 'Every Monday 06:00–08:00',
  rrule: 'FREQ=WEEKLY;INTERVAL=1;BYDAY=MO',
  expandedUntil: null,
  upcomingCount: 52,
  nextStart: null,
  createdAt: '2030-03-04T00:00:00Z',
  updatedAt: '2030-03-04T00:00:00Z',
};

const affected: AffectedBooking = {
  id: 'booking-1',
  version: 2,
  status: 'approved',
  tsrNumber: 'TSR-IN-THE-WAY',
  tenantName: 'Coastal Freight',
  tenantEmail: 'kim@coastal.example',
  vehicleRegistration: 'ABC123',
  vehicleHeightM: 5.2,
  siteId: SITE,
  bayId: BAY,
  bayName: 'N-12',
  startTime: '2030-03-04T20:00:00Z',
  endTime: '2030-03-04T20:30:00Z',
};

function openForm(routes: { oneOff?: (call: ApiCall) => ApiReply; series?: (call: ApiCall) => ApiReply } = {}) {
  const api = fakeApi({
    [ONE_OFF]: routes.oneOff ?? (() => ({ status: 201, body: { blackout: blackout(), outcomes: [] } })),
    [SERIES]: routes.series ?? (() => ({ status: 201, body: { series, occurrences: 52, outcomes: [] } })),
  });
  const onClose = vi.fn();
  const rendered = renderWithProviders(
    <BlackoutFormModal orgId={ORG} opened target={null} options={options} defaultSiteId={SITE} onClose={onClose} />,
  );
  return { ...rendered, api, onClose, form: screen.getByRole('dialog', { name: 'New blackout' }) };
}

describe('BlackoutFormModal', () => {
  it('closes a bay for tomorrow morning at the site, says so in words, and sends the site-local times', async () => {
    const { user, api, onClose, form } = openForm();
    // Tomorrow at the site, 06:00–12:00, the whole site until a bay is chosen.
    expect(within(form).getByLabelText(/^Start date/)).toHaveValue('2030-03-05');
    expect(within(form).getByText('Times are local to North Terminal (Australia/Sydney).')).toBeInTheDocument();
    expect(within(form).getByText(/^Closes the whole of North Terminal from/)).toHaveTextContent('06:00 to 12:00.');

    await user.click(within(form).getByRole('textbox', { name: 'Bay' }));
    expect(screen.getByRole('option', { name: 'N-13 (inactive)' })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'N-12' }));
    await user.click(within(form).getByRole('textbox', { name: 'Reason' }));
    await user.paste('Dock leveller repair');
    expect(within(form).getByText(/^Closes bay N-12 from/)).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Create blackout' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.callsTo(ONE_OFF).map((c) => c.body)).toEqual([
      { siteId: SITE, bayId: BAY, startDate: '2030-03-05', startTime: '06:00', endDate: '2030-03-05', endTime: '12:00', reason: 'Dock leveller repair' },
    ]);
    expect(await findToast('Blackout created')).toHaveTextContent('N-12, North Terminal.');
  });

  it('refuses an end before the start under the field, and sends nothing', async () => {
    const { user, api, onClose, form } = openForm();
    const endTime = within(form).getByLabelText(/^End time/);
    await user.clear(endTime);
    await user.type(endTime, '05:00');
    await user.click(within(form).getByRole('button', { name: 'Create blackout' }));

    expect(await within(form).findByText(END_BEFORE_START_MESSAGE)).toBeInTheDocument();
    expect(endTime).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('repeats weekly only on chosen days: asks for one, then summarises and sends the series', async () => {
    const { user, api, form } = openForm();
    await user.click(within(form).getByText('Recurring'));
    expect(within(form).queryByTestId('recurrence-summary')).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Create blackout' }));
    expect(await within(form).findByText(WEEKDAYS_REQUIRED_MESSAGE)).toBeInTheDocument();
    expect(api.calls).toEqual([]);

    await user.click(within(form).getByRole('checkbox', { name: 'Monday' }));
    expect(within(form).getByTestId('recurrence-summary')).toHaveTextContent('Every Monday 06:00–08:00');
    expect(within(form).getByTestId('recurrence-summary')).toHaveTextContent('Next: ');
    await user.click(within(form).getByRole('button', { name: 'Create blackout' }));

    await waitFor(() =>
      expect(api.callsTo(SERIES).map((c) => c.body)).toEqual([
        { siteId: SITE, bayId: null, frequency: 'weekly', interval: 1, weekdays: ['mon'], startsOn: '2030-03-05', startLocal: '06:00', durationMin: 120, until: null, reason: null },
      ]),
    );
  });

  it('lists the bookings in the way and sends the same blackout again with the choice', async () => {
    const { user, api, onClose } = openForm({
      oneOff: (call) =>
        (call.body as { resolution?: unknown }).resolution
          ? { status: 201, body: { blackout: blackout(), outcomes: [{ id: affected.id, tsrNumber: affected.tsrNumber, outcome: 'kept', bayName: null, message: null }] } }
          : apiError(409, 'affected_bookings', 'Bookings are in the way', { affected: [affected] }),
    });
    await user.click(screen.getByRole('button', { name: 'Create blackout' }));

    const asked = await screen.findByRole('dialog', { name: 'Bookings in the way' });
    expect(within(asked).getByRole('table', { name: 'Affected bookings' })).toHaveTextContent('TSR-IN-THE-WAY');
    expect(onClose).not.toHaveBeenCalled();
    await user.click(within(asked).getByRole('button', { name: 'Keep them' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [first, second] = api.callsTo(ONE_OFF).map((c) => c.body as Record<string, unknown>);
    expect(first!.resolution).toBeUndefined();
    expect(second).toEqual({ ...first, resolution: { action: 'keep' } });
  });
});
