import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { I18nProvider, LANGUAGE_STORAGE_KEY } from '../../../i18n/index';
import { fakeApi } from '../../../test/fake-api';
import { chooseSlotInGrid, findToast, renderWithProviders } from '../../../test/render';
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
    await chooseSlotInGrid(user, 'Termin', '09:00');
    await user.click(screen.getByRole('button', { name: 'Wyślij wniosek o rezerwację' }));

    expect(await screen.findByText('Numer TSR jest wymagany', { selector: '.mantine-InputWrapper-error' })).toBeInTheDocument();
    expect(screen.getByText('Nazwa firmy jest wymagana', { selector: '.mantine-InputWrapper-error' })).toBeInTheDocument();
    const toast = await findToast('Błąd walidacji');
    expect(toast).toHaveTextContent('Regulamin musi zostać zaakceptowany');
    expect(toast).not.toHaveTextContent('is required');
    expect(submit).not.toHaveBeenCalled();
  });

  it('shows the server’s day notice in Polish, its date in the Polish calendar', async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'pl');
    fakeApi({
      'GET /api/public/booking-info': () => ({ body: bookingInfo }),
      'POST /api/public/availability': () => ({
        body: {
          ...availability,
          date: '2030-02-25',
          slots: [],
          status: 'past',
          notice: 'This date has passed at North Terminal (today there is Fri 1 Mar).',
        },
      }),
    });
    const { user } = renderWithProviders(
      <I18nProvider>
        <BookingRequestForm orgId={ORG} onSubmitted={vi.fn()} />
      </I18nProvider>,
    );
    await user.type(await screen.findByLabelText(/^Data/), '2030-02-25');
    expect(await screen.findByText('Ta data już minęła w obiekcie North Terminal (dziś jest tam pt., 1 mar).')).toBeInTheDocument();
    expect(screen.queryByText(/has passed/)).not.toBeInTheDocument();
  });

  it('shows the server’s refusal on submit in Polish', async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'pl');
    fakeApi({
      'GET /api/public/booking-info': () => ({ body: bookingInfo }),
      'POST /api/public/availability': () => ({ body: availability }),
      'POST /api/public/bookings': () => ({
        status: 409,
        body: {
          error: {
            code: 'vehicle_already_booked',
            message: 'Vehicle ABC123 already has a booking at an overlapping time. Choose another time or cancel the other booking first.',
          },
        },
      }),
    });
    const { user } = renderWithProviders(
      <I18nProvider>
        <BookingRequestForm orgId={ORG} onSubmitted={vi.fn()} />
      </I18nProvider>,
    );
    const fill = async (label: RegExp, text: string) => {
      await user.click(screen.getByLabelText(label));
      await user.paste(text);
    };
    await screen.findByLabelText(/^Numer TSR/);
    await fill(/^Numer TSR/, 'TSR-1');
    await fill(/^Nazwa firmy/, 'Coastal Freight');
    await fill(/^Osoba kontaktowa/, 'Kim Lee');
    await fill(/^E-mail/, 'kim@coastal.example');
    await user.selectOptions(screen.getByLabelText(/^Typ pojazdu/), 'van');
    await fill(/^Numer rejestracyjny/, 'abc123');
    await fill(/^Wysokość pojazdu/, '2.5');
    await user.click(screen.getByRole('checkbox', { name: 'Kierowca ukończył szkolenie wstępne obiektu' }));
    await user.click(screen.getByRole('checkbox', { name: /Akceptuję/ }));
    await user.type(screen.getByLabelText(/^Data/), DAY);
    await screen.findByRole('group', { name: 'Termin' });
    await chooseSlotInGrid(user, 'Termin', '09:00');
    await user.click(screen.getByRole('button', { name: 'Wyślij wniosek o rezerwację' }));

    const toast = await findToast('Wysyłanie nie powiodło się');
    expect(toast).toHaveTextContent('Pojazd ABC123 ma już rezerwację w nakładającym się czasie. Wybierz inną godzinę albo najpierw anuluj tamtą rezerwację.');
  });
});
