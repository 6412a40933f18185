import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allowedTransitions, type LifecycleActor } from '../../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../../domain/enums';
import type { BookingDetail } from '../../../../domain/org-bookings';
import { apiError, fakeApi, type ApiReply } from '../../../test/fake-api';
import { findToast, renderWithProviders } from '../../../test/render';
import { BookingDrawer } from './booking-drawer';

// The booking drawer's actions: the buttons are the moves the server allows the caller (it answers
// them with the booking, from the lifecycle table for the caller's role), plus Reschedule while
// the booking is pending or approved; a click sends that move with the version on screen, and the
// moves that end a booking ask first (a decline needs a reason).

const ORG = 'org-1';
const ID = 'booking-1';
const DETAIL_PATH = `GET /api/orgs/${ORG}/bookings/${ID}`;
const MOVE_PATH = `POST /api/orgs/${ORG}/bookings/${ID}/transitions`;

/** The booking as the API answers it to `role`. */
function detail(status: BookingStatus, role: LifecycleActor, changes: Partial<BookingDetail> = {}): BookingDetail {
  return {
    id: ID,
    version: 3,
    status,
    tsrNumber: 'TSR-42',
    tenantName: 'Coastal Freight',
    siteId: 'site-1',
    siteName: 'North Terminal',
    bayId: 'bay-1',
    bayName: 'N-01',
    timeZone: 'UTC',
    startTime: '2030-03-04T09:00:00Z',
    endTime: '2030-03-04T09:30:00Z',
    bookingType: 'delivery',
    vehicleType: 'van',
    vehicleRegistration: 'ABC123',
    source: 'portal',
    createdAt: '2030-03-01T09:00:00Z',
    tsrSystemType: null,
    tsrUrl: null,
    contactName: 'Kim Lee',
    tenantEmail: 'kim@coastal.example',
    tenantPhone: null,
    vehicleHeightM: 2.5,
    vehicleLengthM: null,
    specialAccessNeeds: [],
    goodsDescription: null,
    expectedDurationMin: 30,
    driverInductionCompleted: true,
    notes: null,
    statusReason: null,
    approvedAt: null,
    declinedAt: null,
    cancelledAt: null,
    checkedInAt: null,
    startedAt: null,
    completedAt: null,
    noShowAt: null,
    updatedAt: '2030-03-01T09:00:00Z',
    allowedTransitions: allowedTransitions(status, role),
    upcomingTransitions: [],
    heldTransitions: [],
    documents: [],
    history: [],
    ...changes,
  };
}

type MoveBody = { to: BookingStatus; version: number; reason?: string };

/**
 * Opens the drawer on a booking in `status` as `role` sees it. A move answers the booking as it
 * then is, and the API reads it so from then on (or answers `refuse`'s reply, changing nothing).
 */
function openDrawer(status: BookingStatus, role: LifecycleActor, refuse?: () => ApiReply) {
  let current = detail(status, role);
  const api = fakeApi({
    [DETAIL_PATH]: () => ({ body: current }),
    [MOVE_PATH]: (call) => {
      if (refuse) return refuse();
      current = detail((call.body as MoveBody).to, role, { version: current.version + 1 });
      return { body: current };
    },
  });
  const rendered = renderWithProviders(<BookingDrawer orgId={ORG} bookingId={ID} onClose={() => undefined} />);
  return { ...rendered, api };
}

/** The drawer's action buttons, in order, once the booking has loaded. */
async function actionButtons(): Promise<string[]> {
  const drawer = await screen.findByRole('dialog', { name: 'Booking TSR-42' });
  const details = within(drawer).getByRole('table', { name: 'Booking details' });
  return within(drawer)
    .getAllByRole('button')
    .filter((button) => !details.contains(button) && button.getAttribute('aria-label') !== 'Close booking details')
    .map((button) => button.textContent ?? '');
}

describe('BookingDrawer actions', () => {
  it.each<[BookingStatus, LifecycleActor, string[]]>([
    ['pending', 'org_admin', ['Approve', 'Decline', 'Cancel', 'Reschedule']],
    ['pending', 'dockmaster', ['Approve', 'Reschedule']],
    ['approved', 'org_admin', ['Check In', 'Cancel', 'Mark No-show', 'Reschedule']],
    ['approved', 'dockmaster', ['Check In', 'Mark No-show', 'Reschedule']],
    ['checked_in', 'org_admin', ['Start']],
    ['in_progress', 'dockmaster', ['Check Out']],
  ])('%s, to %s: %j', async (status, role, expected) => {
    openDrawer(status, role);
    expect(await actionButtons()).toEqual(expected);
  });

  it.each<BookingStatus>(['completed', 'declined', 'cancelled', 'no_show'])('%s: nothing, and says why', async (status) => {
    openDrawer(status, 'org_admin');
    expect(await actionButtons()).toEqual([]);
    expect(screen.getByText(new RegExp(`^No further action: this booking is `))).toBeInTheDocument();
  });

  it('approves with the version on screen, and shows the new status', async () => {
    const { user, api } = openDrawer('pending', 'org_admin');
    await user.click(await screen.findByRole('button', { name: 'Approve' }));

    await waitFor(() => expect(api.callsTo(MOVE_PATH).map((c) => c.body)).toEqual([{ to: 'approved', version: 3 }]));
    expect(await findToast('Booking updated')).toHaveTextContent('TSR-42 is now approved.');
    expect(await screen.findByRole('button', { name: 'Check In' })).toBeInTheDocument();
    expect(screen.getByTestId('booking-status')).toHaveTextContent('Approved');
  });

  it('asks for a reason before declining, and sends it', async () => {
    const { user, api } = openDrawer('pending', 'org_admin');
    await user.click(await screen.findByRole('button', { name: 'Decline' }));
    const dialog = screen.getByRole('dialog', { name: 'Decline' });

    await user.click(within(dialog).getByRole('button', { name: 'Decline' }));
    expect(within(dialog).getByText('A reason is required')).toBeInTheDocument();
    expect(api.callsTo(MOVE_PATH)).toEqual([]);

    await user.click(within(dialog).getByRole('textbox', { name: /^Reason/ }));
    await user.paste('No refrigerated bay');
    await user.click(within(dialog).getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(api.callsTo(MOVE_PATH).map((c) => c.body)).toEqual([{ to: 'declined', version: 3, reason: 'No refrigerated bay' }]));
  });

  it('cancels after confirming, with the reason optional', async () => {
    const { user, api } = openDrawer('approved', 'org_admin');
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel booking' });
    expect(api.callsTo(MOVE_PATH)).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    await waitFor(() => expect(api.callsTo(MOVE_PATH).map((c) => c.body)).toEqual([{ to: 'cancelled', version: 3 }]));
  });

  it('offers no Check In while the site is stopped, and says why in the server’s words', async () => {
    const message = 'Operations at North Terminal are stopped (emergency: Forklift fire). Check-in and calling vehicles to bays are on hold until the site resumes.';
    fakeApi({
      [DETAIL_PATH]: () => ({
        body: detail('approved', 'org_admin', { allowedTransitions: ['cancelled', 'no_show'], heldTransitions: [{ to: 'checked_in', message }] }),
      }),
    });
    renderWithProviders(<BookingDrawer orgId={ORG} bookingId={ID} onClose={() => undefined} />);
    expect(await actionButtons()).toEqual(['Cancel', 'Mark No-show', 'Reschedule']);
    const hold = screen.getByTestId('emergency-hold');
    expect(hold).toHaveTextContent('Check In on hold: emergency stop');
    expect(hold).toHaveTextContent(message);
  });

  it('says what the server answered when the move is refused', async () => {
    const { user } = openDrawer('approved', 'dockmaster', () =>
      apiError(409, 'version_conflict', 'This booking was changed by someone else. Reload to see its current state.'),
    );
    await user.click(await screen.findByRole('button', { name: 'Check In' }));
    expect(await findToast('Not changed')).toHaveTextContent('This booking was changed by someone else. Reload to see its current state.');
  });
});
