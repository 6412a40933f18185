import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { KioskCheckInResult } from '../../../../domain/kiosk';
import kioskCatalogue from 'virtual:i18n-namespace/kiosk';
import { I18nNamespace, I18nProvider, LANGUAGE_STORAGE_KEY } from '../../../i18n/index';
import { renderWithProviders } from '../../../test/render';
import { ResultScreen } from './kiosk-screens';

// Issue 27: the kiosk's refusal said in the driver's language from its reason and facts (the
// server's message stays English), times in the site's time zone (Warsaw: UTC+1 in March).

const facts = { bookingId: 'b1', vehicleRegistration: 'WX 1234', tsrNumber: 'TSR-7', startTime: '2030-03-04T09:00:00Z' };

function renderInPolish(result: KioskCheckInResult) {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, 'pl');
  return renderWithProviders(
    <I18nProvider>
      <I18nNamespace catalogue={kioskCatalogue}>
        <ResultScreen result={result} timeZone="Europe/Warsaw" onDone={vi.fn()} />
      </I18nNamespace>
    </I18nProvider>,
  );
}

describe('the kiosk refusal in Polish', () => {
  it('says when check-in opens, in the site’s time', async () => {
    renderInPolish({
      outcome: 'refused',
      ...facts,
      reason: 'too_early',
      opensAt: '2030-03-04T08:30:00Z',
      message: 'Too early: check-in opens at 09:30 (your slot is at 10:00).',
      action: 'Please wait in the lorry park and check in again then.',
    });
    expect(await screen.findByText('Za wcześnie: rejestracja otwiera się o 09:30 (Twój termin jest o 10:00).')).toBeInTheDocument();
    expect(screen.getByText('Zaczekaj na parkingu dla ciężarówek i wtedy zarejestruj się ponownie.')).toBeInTheDocument();
    expect(screen.getByTestId('kiosk-refused')).toHaveTextContent('Jeszcze nie');
    expect(screen.queryByText(/Too early/)).not.toBeInTheDocument();
  });

  it('names the booking’s day in Polish when it is on another day', async () => {
    renderInPolish({
      outcome: 'refused',
      ...facts,
      reason: 'too_early',
      opensAt: '2030-03-04T08:30:00Z',
      message: 'Your booking is on Monday 4 March at 10:00. Check-in opens at 09:30 that day.',
      action: 'Please come back on the day of your booking, or report to the gate house.',
    });
    expect(await screen.findByText('Twoja rezerwacja jest na poniedziałek, 4 marca, godz. 10:00. Rejestracja otwiera się tego dnia o 09:30.')).toBeInTheDocument();
    expect(screen.getByText('Wróć w dniu rezerwacji albo zgłoś się do portierni.')).toBeInTheDocument();
  });

  it('says a cancelled booking’s status in Polish', async () => {
    renderInPolish({
      outcome: 'refused',
      ...facts,
      reason: 'not_active',
      status: 'cancelled',
      message: 'This booking is cancelled: it cannot be checked in.',
      action: 'Please report to the gate house.',
    });
    expect(await screen.findByText('Ta rezerwacja ma status „anulowana”: nie można się na nią zarejestrować.')).toBeInTheDocument();
    expect(screen.getByText('Zgłoś się do portierni.')).toBeInTheDocument();
  });
});
