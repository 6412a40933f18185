import type { KioskCheckInInput, KioskWalkInRequestInput } from '../../../../domain/kiosk';
import { KIOSK_AUTH_SCHEME } from '../../../../domain/kiosk';
import { apiCall } from '../../../lib/api-client';

// The kiosk's own API (/api/kiosk/…), authenticated by the device's secret, never by a staff
// session: the secret is kept in this browser's localStorage once set up (pasted, or from the
// setup link `/kiosk#token=<secret>` shown to the admin when the kiosk was registered).

const SECRET_KEY = 'baywise.kiosk.secret';

export function readKioskSecret(): string | null {
  try {
    return localStorage.getItem(SECRET_KEY);
  } catch {
    return null;
  }
}

export function saveKioskSecret(secret: string | null): void {
  try {
    if (secret) localStorage.setItem(SECRET_KEY, secret);
    else localStorage.removeItem(SECRET_KEY);
  } catch {
    // Private mode: the secret lives as long as the page.
  }
}

/** A secret from the setup link's fragment (`#token=…`), taken out of the address bar at once. */
export function takeSecretFromLocation(): string | null {
  const match = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
  if (!match) return null;
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  return decodeURIComponent(match[1]!);
}

const auth = (secret: string) => ({ anonymous: true, headers: { authorization: `${KIOSK_AUTH_SCHEME} ${secret}` } });

export const getKioskMe = (secret: string) => apiCall('GET /api/kiosk/me', auth(secret));

export const checkInAtKiosk = (secret: string, body: KioskCheckInInput) => apiCall('POST /api/kiosk/check-in', { ...auth(secret), body });

export const getKioskBookingStatus = (secret: string, bookingId: string) =>
  apiCall('GET /api/kiosk/bookings/:bookingId/status', { ...auth(secret), params: { bookingId } });

export const requestWalkIn = (secret: string, body: KioskWalkInRequestInput) => apiCall('POST /api/kiosk/walk-in-requests', { ...auth(secret), body });

/** The organization's logo as an object URL (null when it has none). */
export async function getKioskLogo(secret: string): Promise<string | null> {
  const response = await fetch('/api/kiosk/logo', { headers: { authorization: `${KIOSK_AUTH_SCHEME} ${secret}` } });
  if (!response.ok) return null;
  return URL.createObjectURL(await response.blob());
}
