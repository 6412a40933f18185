import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LANGUAGE_STORAGE_KEY } from '../../../i18n/index';
import { fakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { saveKioskSecret } from '../api/kiosk-api';
import KioskPage from './kiosk-page';

// The gate kiosk serves one driver after another: a language a driver picked is theirs alone. Left
// on the start screen, the kiosk returns to the organization's portal language after a minute
// without a touch (and at once when a driver finishes: e2e/portal-language.spec.ts).

const POLISH_WELCOME = 'Witamy — zarejestruj się tutaj';
const ENGLISH_WELCOME = 'Welcome — check in here';

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  saveKioskSecret('kiosk_test-secret-0123456789abcdef0123456789');
  localStorage.setItem(LANGUAGE_STORAGE_KEY, 'pl'); // the last driver picked Polish
  fakeApi({
    'GET /api/kiosk/me': () => ({
      body: { deviceName: 'Gate tablet', siteName: 'North Yard', timeZone: 'UTC', orgName: 'Kiosk Co', defaultLanguage: 'en', hasLogo: false },
    }),
  });
});

afterEach(() => {
  vi.useRealTimers();
  saveKioskSecret(null);
  localStorage.removeItem(LANGUAGE_STORAGE_KEY);
});

describe('the kiosk’s language between drivers', () => {
  it('returns from a driver’s language to the organization’s after a minute on the start screen', async () => {
    renderWithProviders(<KioskPage />);
    expect(await screen.findByRole('heading', { name: POLISH_WELCOME })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(59_000));
    expect(screen.getByRole('heading', { name: POLISH_WELCOME })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(await screen.findByRole('heading', { name: ENGLISH_WELCOME })).toBeInTheDocument();
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
  });

  it('waits while the driver is still touching the screen', async () => {
    renderWithProviders(<KioskPage />);
    expect(await screen.findByRole('heading', { name: POLISH_WELCOME })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(50_000));
    fireEvent.pointerDown(window);
    await act(() => vi.advanceTimersByTimeAsync(50_000));
    expect(screen.getByRole('heading', { name: POLISH_WELCOME })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(11_000));
    expect(await screen.findByRole('heading', { name: ENGLISH_WELCOME })).toBeInTheDocument();
  });
});
