import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import type { CreatedBooking } from '../api/types';
import { BookingSubmitted } from './booking-submitted';

// The portal's confirmation page promises a review only when the booking waits for one (issue 22
// item 2): an approved booking is not "reviewed within 2 hours".

const booking = (status: string): CreatedBooking => ({
  id: 'b-1',
  reference: 'TSR-1',
  status,
  siteName: 'North Terminal',
  bayName: 'N-01',
  startTime: '2030-03-04T09:00:00Z',
  endTime: '2030-03-04T10:00:00Z',
  timeZone: 'UTC',
  manageUrl: null,
  arrivalCode: 'K7M29QXD',
  documents: 0,
});

describe('BookingSubmitted', () => {
  it('promises the review for a pending request', () => {
    renderWithProviders(
      <MemoryRouter>
        <BookingSubmitted booking={booking('pending')} tsrNumber="TSR-1" />
      </MemoryRouter>,
    );
    expect(screen.getByText(/will review your request within 2 hours/)).toBeTruthy();
  });

  it('says an approved booking is approved, with no review promised', () => {
    renderWithProviders(
      <MemoryRouter>
        <BookingSubmitted booking={booking('approved')} tsrNumber="TSR-1" />
      </MemoryRouter>,
    );
    expect(screen.queryByText(/review/)).toBeNull();
    expect(screen.getByText(/Your booking is approved/)).toBeTruthy();
  });

  it('shows the arrival code typed and as a QR code (loaded on demand)', async () => {
    renderWithProviders(
      <MemoryRouter>
        <BookingSubmitted booking={booking('approved')} tsrNumber="TSR-1" />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('arrival-code').textContent).toBe('K7M2-9QXD');
    const qr = await screen.findByRole('img', { name: 'QR code of arrival code K7M2-9QXD' }, { timeout: 5_000 });
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
  });
});
