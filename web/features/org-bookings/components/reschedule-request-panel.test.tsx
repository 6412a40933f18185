import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BookingDetail } from '../../../../domain/org-bookings';
import { fakeApi } from '../../../test/fake-api';
import { findToast, renderWithProviders } from '../../../test/render';
import { OrgSelectionContext, type OrgSelection } from '../../org/hooks/org-selection-context';
import { BookingDrawer } from './booking-drawer';

// A carrier's reschedule request on a confirmed booking (SSC API): the drawer shows the requested
// time; an org admin accepts (the booking moves) or refuses it (with an optional reason); others
// see that an admin decides.

const ORG = 'org-1';
const ID = 'booking-1';
const base = `/api/orgs/${ORG}/bookings/${ID}`;

const booking = (changes: Partial<BookingDetail> = {}): BookingDetail => ({
  id: ID,
  version: 4,
  status: 'approved',
  tsrNumber: 'LOAD-7',
  tenantName: 'Carrier Co',
  siteId: 'site-1',
  siteName: 'North Terminal',
  bayId: 'bay-1',
  bayName: 'N-01',
  timeZone: 'UTC',
  startTime: '2030-03-04T09:00:00Z',
  endTime: '2030-03-04T10:00:00Z',
  bookingType: 'delivery',
  vehicleType: 'semi',
  vehicleRegistration: 'SSC-1',
  source: 'ssc',
  createdAt: '2030-03-01T09:00:00Z',
  tsrSystemType: null,
  tsrUrl: null,
  contactName: null,
  tenantEmail: 'ops@carrier.example',
  tenantPhone: null,
  vehicleHeightM: 4.1,
  vehicleLengthM: null,
  specialAccessNeeds: [],
  goodsDescription: null,
  expectedDurationMin: 60,
  driverInductionCompleted: true,
  notes: null,
  statusReason: null,
  approvedAt: '2030-03-01T10:00:00Z',
  declinedAt: null,
  cancelledAt: null,
  checkedInAt: null,
  startedAt: null,
  completedAt: null,
  noShowAt: null,
  updatedAt: '2030-03-01T10:00:00Z',
  allowedTransitions: [],
  upcomingTransitions: [],
  heldTransitions: [],
  documents: [],
  history: [],
  rescheduleRequest: { startTime: '2030-03-04T13:00:00Z', expectedDurationMin: 90, requestedAt: '2030-03-02T08:00:00Z', reasonCode: 'LATE_TRUCK', comment: null },
  ...changes,
});

function open(role: 'org_admin' | 'dockmaster') {
  let current = booking();
  const api = fakeApi({
    [`GET ${base}`]: () => ({ body: current }),
    [`POST ${base}/reschedule-request/accept`]: () => {
      current = booking({ startTime: '2030-03-04T13:00:00Z', endTime: '2030-03-04T14:30:00Z', expectedDurationMin: 90, rescheduleRequest: null, version: 5 });
      return { body: current };
    },
    [`POST ${base}/reschedule-request/refuse`]: () => {
      current = booking({ rescheduleRequest: null });
      return { body: current };
    },
  });
  const selection = { selectedOrg: { id: ORG, name: 'Org', role } } as unknown as OrgSelection;
  const rendered = renderWithProviders(
    <OrgSelectionContext.Provider value={selection}>
      <BookingDrawer orgId={ORG} bookingId={ID} onClose={() => undefined} />
    </OrgSelectionContext.Provider>,
  );
  return { ...rendered, api };
}

describe('the reschedule request in the booking drawer', () => {
  it('shows the requested time; an admin accepts it and the request goes', async () => {
    const { user, api } = open('org_admin');
    const panel = await screen.findByTestId('reschedule-request');
    expect(panel).toHaveTextContent('The carrier asks for a new time');
    expect(panel).toHaveTextContent('90 minutes');
    expect(panel).toHaveTextContent('Reason: LATE_TRUCK');
    await user.click(screen.getByRole('button', { name: 'Accept new time' }));
    await waitFor(() => expect(api.callsTo(`POST ${base}/reschedule-request/accept`)).toHaveLength(1));
    expect(await findToast('New time accepted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('reschedule-request')).not.toBeInTheDocument());
  });

  it('an admin refuses it with a reason', async () => {
    const { user, api } = open('org_admin');
    await user.click(await screen.findByRole('button', { name: 'Refuse' }));
    await user.type(await screen.findByLabelText('Reason (optional)'), 'Dock full');
    await user.click(screen.getAllByRole('button', { name: 'Refuse' }).at(-1)!);
    await waitFor(() => expect(api.callsTo(`POST ${base}/reschedule-request/refuse`).map((c) => c.body)).toEqual([{ reason: 'Dock full' }]));
    expect(await findToast('Request refused')).toBeInTheDocument();
  });

  it('a dockmaster sees the request but not the buttons', async () => {
    open('dockmaster');
    expect(await screen.findByTestId('reschedule-request')).toHaveTextContent('An organization admin accepts or refuses it.');
    expect(screen.queryByRole('button', { name: 'Accept new time' })).not.toBeInTheDocument();
  });
});
