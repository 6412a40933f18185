import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { I18nProvider, LANGUAGE_STORAGE_KEY } from '../../../i18n/index';
import { fakeApi } from '../../../test/fake-api';
import { findToast, renderWithProviders } from '../../../test/render';
import type { Availability, BookingInfo } from '../api/types';
import { BookingRequestForm } from './booking-request-form';

// Issue 27: the booking form in the haulier's language, its labels and the shared schema's
// messages (English in domain/) shown in Polish.

const ORG = '5b1e0c9e-0000-4000-8000-000000000001';
const DAY = '2030-03-04';

const bookingInfo: BookingInfo = {
  organizations: [
    {
      id: ORG,
      name: 'Acme Logistics',
      hauliersChooseSite: false, defaultLanguage: 'en',
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

describe('BookingRequestForm in Polish', () => {
  it('shows Polish labels, plurals and the schema’s messages in Polish, and sends nothing', async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'pl');
    const submit = vi.fn();
    fakeApi({
      'GET /api/public/booking-info': () => ({ body: bookingInfo }),
      'POST /api/public/availability': () => ({ body: availability }),
      'POST /api/public/bookings': submit,
    });
    const { user } = renderWithProviders(
      <I18nProvider>
        <BookingRequestForm orgId={ORG} onSubmitted={vi.fn()} />
      </I18nProvider>,
    );

    expect(await screen.findByLabelText(/^Numer TSR/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Dane firmy i osoby kontaktowej' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('pl');

    await user.type(screen.getByLabelText(/^Data/), DAY);
    const grid = await screen.findByRole('group', { name: 'Termin' });
    expect(screen.getByText('2 pasujące stanowiska dostępne')).toBeInTheDocument();
    expect(within(grid).getByRole('button', { name: /09:30/ })).toHaveTextContent('0 wolnych');
    await user.click(within(grid).getByRole('button', { name: /09:00/ }));
    await user.click(screen.getByRole('button', { name: 'Wyślij wniosek o rezerwację' }));

    expect(await screen.findByText('Numer TSR jest wymagany', { selector: '.mantine-InputWrapper-error' })).toBeInTheDocument();
    expect(screen.getByText('Nazwa firmy jest wymagana', { selector: '.mantine-InputWrapper-error' })).toBeInTheDocument();
    const toast = await findToast('Błąd walidacji');
    expect(toast).toHaveTextContent('Regulamin musi zostać zaakceptowany');
    expect(toast).not.toHaveTextContent('is required');
    expect(submit).not.toHaveBeenCalled();
  });
});
