import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { BOOKING_REQUEST_MESSAGES } from '../../../../domain/booking-request';
import { apiError, fakeApi, type ApiCall } from '../../../test/fake-api';
import { chooseSlotInGrid, findToast, renderWithProviders } from '../../../test/render';
import type { Availability, BookingInfo, CreatedBooking } from '../api/types';
import { BookingRequestForm } from './booking-request-form';

// The public booking request form (spec §3, §5, §8): what the haulier can send and when, the
// shared schema's messages under the fields, and what is sent to the API.

const ORG = '5b1e0c9e-0000-4000-8000-000000000001';
const DAY = '2030-03-04';

const bookingInfo: BookingInfo = {
  organizations: [
    {
      id: ORG,
      name: 'Acme Logistics',
      hauliersChooseSite: false,
      defaultLanguage: 'en',
      sites: [
        {
          id: 'site-1',
          name: 'North Terminal',
          address: null,
          timeZone: 'UTC',
          operatingHours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
          minAdvanceMin: 0,
          bookingHorizonDays: 36_500,
          bayCount: 2,
          maxClearanceM: 4.5,
          contactPhone: null,
          contactEmail: null,
        },
      ],
    },
  ],
};

const slot = (time: string, freeBays: number) => ({ time, start: `${DAY}T${time}:00Z`, end: `${DAY}T${time}:00Z`, freeBays, available: freeBays > 0 });
const availability: Availability = {
  date: DAY,
  timeZone: 'UTC',
  compatibleBays: 2,
  slots: [slot('09:00', 2), slot('09:30', 0)],
  siteName: 'North Terminal',
  siteToday: '2030-03-01',
  lastBookableDate: '2030-05-01',
  notice: null,
  isMonthFull: false,
};

const created: CreatedBooking = {
  id: 'booking-1',
  reference: 'TSR-1',
  status: 'pending',
  siteName: 'North Terminal',
  bayName: 'N-01',
  startTime: `${DAY}T09:00:00Z`,
  endTime: `${DAY}T09:30:00Z`,
  timeZone: 'UTC',
  manageUrl: null,
  arrivalCode: 'K7M29QXD',
  documents: 0,
};

function setUp(submit: (call: ApiCall) => ReturnType<Parameters<typeof fakeApi>[0][string]> = () => ({ status: 201, body: created })) {
  const api = fakeApi({
    'GET /api/public/booking-info': () => ({ body: bookingInfo }),
    'POST /api/public/availability': () => ({ body: availability }),
    'POST /api/public/bookings': submit,
  });
  const onSubmitted = vi.fn();
  const rendered = renderWithProviders(<BookingRequestForm orgId={ORG} onSubmitted={onSubmitted} />);
  return { ...rendered, api, onSubmitted };
}

const submitButton = () => screen.getByRole('button', { name: 'Submit Booking Request' });

/** Types the day and picks the 09:00 slot from the grid the API answered. */
async function chooseSlot(user: ReturnType<typeof setUp>['user']): Promise<void> {
  await user.type(screen.getByLabelText(/^Date/), DAY);
  await screen.findByRole('group', { name: 'Time Slot' });
  await chooseSlotInGrid(user, 'Time Slot', '09:00');
}

/** Puts `text` into the field as one input (pasted): the form re-renders once, not once a key. */
async function fill(user: ReturnType<typeof setUp>['user'], label: RegExp, text: string): Promise<void> {
  const field = screen.getByLabelText(label);
  await user.clear(field);
  await user.click(field);
  await user.paste(text);
}

async function fillValidRequest(user: ReturnType<typeof setUp>['user']): Promise<void> {
  await fill(user, /^TSR Number/, 'TSR-1');
  await fill(user, /^Company Name/, 'Coastal Freight');
  await fill(user, /^Contact Name/, 'Kim Lee');
  await fill(user, /^Email/, 'kim@coastal.example');
  await user.selectOptions(screen.getByLabelText(/^Vehicle Type/), 'van');
  await fill(user, /^Vehicle Registration/, 'abc123');
  await fill(user, /^Vehicle Height/, '2.5');
  await user.click(screen.getByRole('checkbox', { name: 'The driver has completed the site induction' }));
  await user.click(screen.getByRole('checkbox', { name: /I accept the terms and conditions/ }));
  await chooseSlot(user);
}

describe('BookingRequestForm', () => {
  it('keeps Submit disabled, and says why, until a date and a free slot are chosen', async () => {
    const { user } = setUp();
    expect(submitButton()).toBeDisabled();
    expect(screen.getByText('Choose a date and a time slot to submit.')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/^Date/), DAY);
    const grid = await screen.findByRole('group', { name: 'Time Slot' });
    expect(submitButton()).toBeDisabled();
    // A slot with no free bay cannot be chosen.
    expect(within(grid).getByRole('button', { name: /09:30/ })).toBeDisabled();

    await user.click(within(grid).getByRole('button', { name: /09:00/ }));
    expect(within(grid).getByRole('button', { name: /09:00/ })).toHaveAttribute('aria-pressed', 'true');
    expect(submitButton()).toBeEnabled();
    expect(screen.queryByText('Choose a date and a time slot to submit.')).not.toBeInTheDocument();
  });

  it('shows the spec’s message under each missing field, toasts them, and sends nothing', async () => {
    const { user, api } = setUp();
    await chooseSlot(user);
    await user.click(submitButton());

    const M = BOOKING_REQUEST_MESSAGES;
    for (const message of [
      M.tsrNumberRequired,
      M.companyNameRequired,
      M.contactNameRequired,
      M.emailRequired,
      M.vehicleTypeRequired,
      M.vehicleRegistrationRequired,
      M.vehicleHeightRequired,
      M.driverInductionRequired,
      M.termsRequired,
    ]) {
      expect(await screen.findAllByText(message), message).not.toHaveLength(0);
    }
    expect(screen.getByLabelText(/^TSR Number/)).toHaveAttribute('aria-invalid', 'true');
    // The toast lists them in the spec's order.
    const toast = await findToast('Validation Error');
    expect(toast).toHaveTextContent(`${M.tsrNumberRequired}, ${M.companyNameRequired}, ${M.contactNameRequired}`);
    expect(api.callsTo('POST /api/public/bookings')).toEqual([]);
  });

  it('refuses an e-mail address that is not one', async () => {
    const { user, api } = setUp();
    await fillValidRequest(user);
    await fill(user, /^Email/, 'kim@coastal');
    await user.click(submitButton());
    expect(await screen.findAllByText(BOOKING_REQUEST_MESSAGES.emailInvalid)).not.toHaveLength(0);
    expect(api.callsTo('POST /api/public/bookings')).toEqual([]);
  });

  it('sends a complete request once, with its idempotency key, and hands the booking on', async () => {
    const { user, api, onSubmitted } = setUp();
    await fillValidRequest(user);
    // The registration is upper-cased as it is entered.
    expect(screen.getByLabelText(/^Vehicle Registration/)).toHaveValue('ABC123');
    await user.click(submitButton());

    await waitFor(() => expect(onSubmitted).toHaveBeenCalledWith(created, 'TSR-1', expect.objectContaining({ tsrNumber: 'TSR-1', vehicleRegistration: expect.any(String) })));
    const [sent] = api.callsTo('POST /api/public/bookings');
    expect(sent!.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    const data = JSON.parse((sent!.body as FormData).get('data') as string) as Record<string, unknown>;
    expect(data).toMatchObject({
      orgId: ORG,
      tsrNumber: 'TSR-1',
      tenantName: 'Coastal Freight',
      tenantEmail: 'kim@coastal.example',
      date: DAY,
      slot: '09:00',
      vehicleType: 'van',
      vehicleRegistration: 'ABC123',
      vehicleHeightM: 2.5,
      driverInductionCompleted: true,
      termsAccepted: true,
    });
    expect(await findToast('Booking Submitted Successfully')).toHaveTextContent('Reference: TSR-1');
  });

  it('says so when the bay was taken meanwhile, and asks for the grid again', async () => {
    const { user, api, onSubmitted } = setUp(() => apiError(409, 'no_available_bay', 'No Available Bay'));
    await fillValidRequest(user);
    const asked = api.callsTo('POST /api/public/availability').length;
    await user.click(submitButton());

    expect(await findToast('No Available Bay')).toHaveTextContent(
      'No compatible bay is available at the selected time. Please choose a different time slot.',
    );
    await waitFor(() => expect(api.callsTo('POST /api/public/availability').length).toBeGreaterThan(asked));
    expect(onSubmitted).not.toHaveBeenCalled();
  });
});
