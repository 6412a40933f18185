import { fireEvent, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { I18nProvider, LANGUAGE_STORAGE_KEY } from '../../../i18n/index';
import { renderWithProviders } from '../../../test/render';
import type { ManagedBooking } from '../api/types';
import { RunningLatePanel } from './running-late-panel';

// Issue 27: the server's "late-report" refusals (English, the public API's words) shown in Polish,
// their day re-said in Polish. The clock is frozen at 09:00 on Tuesday 24 November in Sydney.

const NOW = '2026-11-23T22:00:00Z';
const TZ = 'Australia/Sydney';
const at = (time: string) => {
  const [h, m] = time.split(':').map(Number);
  return new Date(Date.parse('2026-11-23T13:00:00Z') + (h! * 60 + m!) * 60_000).toISOString();
};

const booking: ManagedBooking = {
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
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(NOW));
  vi.stubGlobal('localStorage', { getItem: (key: string) => (key === LANGUAGE_STORAGE_KEY ? 'pl' : null), setItem: () => undefined, removeItem: () => undefined });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function reportEta(eta: string) {
  const { user } = renderWithProviders(
    <I18nProvider>
      <MemoryRouter initialEntries={['/book/manage/tok?late=1']}>
        <RunningLatePanel token="tok" booking={booking} />
      </MemoryRouter>
    </I18nProvider>,
  );
  fireEvent.change(await screen.findByLabelText(/Przewidywany przyjazd do bramy/), { target: { value: eta } });
  await user.click(screen.getByRole('button', { name: 'Poinformuj obiekt' }));
}

describe('RunningLatePanel in Polish', () => {
  it('shows the server’s refusal of an arrival time already past in Polish', async () => {
    vi.stubGlobal('fetch', vi.fn(async () =>
      json(422, {
        error: {
          code: 'eta_in_past',
          message: '08:30 has already passed at Harbour Dock (it is 09:00 there now). Enter the time you now expect to arrive.',
          details: [{ path: 'eta', message: 'Enter a time still to come' }],
        },
      }),
    ));
    await reportEta('08:30');
    expect(
      await screen.findByText('Godzina 08:30 już minęła w obiekcie Harbour Dock (jest tam teraz 09:00). Podaj godzinę, o której teraz spodziewasz się przyjechać.'),
    ).toBeTruthy();
    expect(screen.queryByText(/has already passed/)).toBeNull();
  });

  it('says the booking’s day in Polish when running late is refused on another day', async () => {
    vi.stubGlobal('fetch', vi.fn(async () =>
      json(409, {
        error: {
          code: 'not_booking_day',
          message: 'Running late can only be reported on the day of the booking (Tuesday 24 November). To change the day, move the booking.',
          details: { date: '2026-11-24' },
        },
      }),
    ));
    await reportEta('10:40');
    expect(
      await screen.findByText('Spóźnienie można zgłosić tylko w dniu rezerwacji (wtorek, 24 listopada). Aby zmienić dzień, przenieś rezerwację.'),
    ).toBeTruthy();
  });
});
