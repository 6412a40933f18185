import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import type { ManagedBooking } from '../api/types';
import { RunningLatePanel } from './running-late-panel';

// "Running late?" on the manage page (decision 043). The screen's clock is frozen at 09:00 on
// Tuesday 24 November in Sydney (UTC+11); the booking starts at 10:00 there.

const NOW = '2026-11-23T22:00:00Z';
const TZ = 'Australia/Sydney';
const at = (time: string) => {
  const [h, m] = time.split(':').map(Number);
  return new Date(Date.parse('2026-11-23T13:00:00Z') + (h! * 60 + m!) * 60_000).toISOString();
};

const booking = (over: Partial<ManagedBooking> = {}): ManagedBooking => ({
  reference: 'TSR-9',
  status: 'approved',
  orgId: 'o1',
  orgName: 'Harbour Co',
  tenantName: 'Late Freight',
  contactName: null,
  tenantEmail: 'jo@late.example',
  siteName: 'Harbour Dock',
  siteAddress: null,
  bayName: 'H-01',
  startTime: at('10:00'),
  endTime: at('11:00'),
  timeZone: TZ,
  date: '2026-11-24',
  slot: '10:00',
  durationMin: 60,
  bookingType: 'delivery',
  vehicleType: 'rigid',
  vehicleRegistration: 'LATE1',
  vehicleHeightM: 3.5,
  canCancel: false,
  canReschedule: false,
  arrivalCode: 'K7M29QXD',
  lateEta: null,
  live: null,
  ...over,
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function stubFetch(...responses: Response[]) {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => responses.shift() ?? json(500, { error: { code: 'x', message: 'no more answers' } }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
const sent = (fetchMock: ReturnType<typeof stubFetch>, index: number) => {
  const [url, init] = fetchMock.mock.calls[index]!;
  return { url, method: init?.method, body: JSON.parse(String(init?.body)) };
};

const render = (url: string, b = booking()) =>
  renderWithProviders(
    <MemoryRouter initialEntries={[url]}>
      <RunningLatePanel token="tok" booking={b} />
    </MemoryRouter>,
  );

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(NOW));
  vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined, removeItem: () => undefined });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('RunningLatePanel', () => {
  it('opens by itself from the reminder link and thanks the haulier when the ETA still fits', async () => {
    const fetchMock = stubFetch(
      json(200, { eta: at('10:40'), etaTime: '10:40', timeZone: TZ, fitsSlot: true, checkInClosesAt: at('10:45'), offers: [] }),
    );
    const { user } = render('/book/manage/tok?late=1');
    const input = screen.getByLabelText(/Expected arrival at the gate/);
    expect(screen.getByText(`Site time (${TZ}). Your slot starts at 10:00.`)).toBeTruthy();
    fireEvent.change(input, { target: { value: '10:40' } });
    await user.click(screen.getByRole('button', { name: 'Tell the site' }));
    expect(await screen.findByText('Thanks — the site knows you expect to arrive at 10:40.')).toBeTruthy();
    expect(sent(fetchMock, 0)).toEqual({ url: '/api/public/manage/tok/late', method: 'POST', body: { eta: '10:40' } });
  });

  it('shows the ETA already reported when the page is opened again, and lets the haulier change it', async () => {
    stubFetch();
    const { user } = render('/book/manage/tok', booking({ lateEta: at('10:40') }));
    expect(screen.getByTestId('late-reported').textContent).toBe('The site knows you expect to arrive at 10:40. If that changes, tell the site again.');
    await user.click(screen.getByRole('button', { name: 'Change expected arrival' }));
    expect(screen.getByLabelText(/Expected arrival at the gate/)).toBeTruthy();
  });

  it('offers the free slots when the truck no longer fits, and moves the booking after a confirmation', async () => {
    const fetchMock = stubFetch(
      json(200, {
        eta: at('10:50'),
        etaTime: '10:50',
        timeZone: TZ,
        fitsSlot: false,
        checkInClosesAt: at('10:45'),
        offers: [
          { time: '11:30', start: at('11:30'), end: at('12:30') },
          { time: '12:00', start: at('12:00'), end: at('13:00') },
        ],
      }),
      json(200, booking({ status: 'pending', startTime: at('11:30'), endTime: at('12:30'), slot: '11:30' })),
    );
    const { user } = render('/book/manage/tok');
    // Closed until asked.
    expect(screen.queryByLabelText(/Expected arrival at the gate/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Running late?' }));
    fireEvent.change(screen.getByLabelText(/Expected arrival at the gate/), { target: { value: '10:50' } });
    await user.click(screen.getByRole('button', { name: 'Tell the site' }));

    const offers = await screen.findByTestId('late-offers');
    expect(within(offers).getByText('Arriving at 10:50 misses your 10:00 slot')).toBeTruthy();
    expect(within(offers).getAllByRole('button').map((b) => b.textContent)).toEqual(['Move to 11:30', 'Move to 12:00']);

    await user.click(within(offers).getByRole('button', { name: 'Move to 11:30' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move your booking to 11:30?' });
    // Nothing is moved before the confirmation.
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await user.click(within(dialog).getByRole('button', { name: 'Move to 11:30' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(sent(fetchMock, 1)).toEqual({ url: '/api/public/manage/tok/late/accept', method: 'POST', body: { startTime: at('11:30') } });
    // The panel says so (a toast too), and that the site reviews the move.
    const moved = await screen.findAllByText(/Your booking is now Tue, 24 Nov 2026, 11:30-12:30\./);
    expect(moved.some((el) => el.textContent?.includes('The site reviews the change; you will get an e-mail.'))).toBe(true);
  });

  it('shows a stale offer’s refusal and keeps the other offers', async () => {
    stubFetch(
      json(200, { eta: at('10:50'), etaTime: '10:50', timeZone: TZ, fitsSlot: false, checkInClosesAt: at('10:45'), offers: [{ time: '11:30', start: at('11:30'), end: at('12:30') }] }),
      json(409, { error: { code: 'offer_taken', message: 'The 11:30 slot is no longer free. Report your arrival time again to see the slots still free.' } }),
    );
    const { user } = render('/book/manage/tok?late=1');
    fireEvent.change(screen.getByLabelText(/Expected arrival at the gate/), { target: { value: '10:50' } });
    await user.click(screen.getByRole('button', { name: 'Tell the site' }));
    await user.click(await screen.findByRole('button', { name: 'Move to 11:30' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Move to 11:30' }));
    expect(await screen.findByText('The 11:30 slot is no longer free. Report your arrival time again to see the slots still free.')).toBeTruthy();
  });

  it('asks for a time before sending anything', async () => {
    const fetchMock = stubFetch();
    const { user } = render('/book/manage/tok?late=1');
    await user.click(screen.getByRole('button', { name: 'Tell the site' }));
    expect(screen.getByText('Enter the time you expect to arrive, for example 10:40')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('is offered only on the day of the booking, before the truck is in', () => {
    const tomorrow = booking({ startTime: new Date(Date.parse(at('10:00')) + 86_400_000).toISOString() });
    const { unmount } = render('/book/manage/tok', tomorrow);
    expect(screen.queryByTestId('running-late')).toBeNull();
    expect(screen.queryByText('Running late?')).toBeNull();
    unmount();
    // From the reminder's link on another day it says when it can be done.
    render('/book/manage/tok?late=1', tomorrow);
    expect(screen.getByText('Running late can be reported on the day of your booking, from this page.')).toBeTruthy();
  });

  it('says nothing for a booking already checked in', () => {
    render('/book/manage/tok?late=1', booking({ status: 'checked_in' }));
    expect(screen.queryByText(/Running late/)).toBeNull();
  });
});
