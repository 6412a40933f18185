import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { I18nProvider, LANGUAGE_STORAGE_KEY } from '../../../i18n/index';
import { LanguagePicker } from '../../../i18n/language-picker';
import { fakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import BookingHelpRoute from './booking-help-page';
import BookingTermsRoute from './booking-terms-page';

// Issue 27: the help and terms pages load their own namespaces (help, terms) with the page, and
// follow the language picked in the header: English first, Polish after picking Polski, and no
// React warning on the way.

function renderPage(page: React.ReactElement) {
  fakeApi({ 'GET /api/public/booking-info': () => ({ body: { organizations: [] } }), 'GET /api/public/organizations': () => ({ body: [] }) });
  return renderWithProviders(
    <MemoryRouter>
      <I18nProvider>
        <LanguagePicker />
        {page}
      </I18nProvider>
    </MemoryRouter>,
  );
}

afterEach(() => localStorage.removeItem(LANGUAGE_STORAGE_KEY));

describe('the help and terms pages in the picked language', () => {
  it('the help page shows Polish after picking Polski', async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    const errors = vi.spyOn(console, 'error');
    const { user } = renderPage(<BookingHelpRoute />);
    expect(await screen.findByRole('heading', { name: 'Booking help', level: 1 })).toBeInTheDocument();
    expect(screen.getAllByText('Bookings must be made at least 2 hours in advance.', { exact: false }).length).toBeGreaterThan(0);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'pl');
    expect(await screen.findByRole('heading', { name: 'Pomoc w rezerwacji', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Rezerwacji należy dokonać co najmniej 2 godziny wcześniej.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'warunkach rezerwacji' })).toHaveAttribute('href', '/book/terms');
    expect(screen.queryByText('How booking works')).not.toBeInTheDocument();
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it('the terms page opens in Polish when Polski is remembered (the namespace loaded before it paints)', async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'pl');
    renderPage(<BookingTermsRoute />);
    expect(await screen.findByRole('heading', { name: 'Regulamin i warunki rezerwacji', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '1. Wnioski o rezerwację' })).toBeInTheDocument();
    expect(screen.getByText('Wniosek należy złożyć co najmniej 2 godziny przed rozpoczęciem terminu.')).toBeInTheDocument();
    expect(screen.queryByText('Booking requests', { exact: false })).not.toBeInTheDocument();
  });
});
