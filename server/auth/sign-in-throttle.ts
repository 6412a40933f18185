import { createHmac, timingSafeEqual } from 'node:crypto';

// Sign-in throttling without a lockout switch (decision 005). Failed attempts slow down, by
// account and by address, with a delay that doubles after a few free tries; nothing ever locks
// an account outright. A browser that has signed in to an account before carries a signed
// "recognised device" cookie for it and is exempt from that account's delay, so an attacker
// hammering someone's e-mail address slows down the attacker, not the owner at their usual desk.

/** Attempts within the window before the delay starts. */
export const FREE_ACCOUNT_FAILURES = 3;
export const FREE_IP_FAILURES = 10;
export const FAILURE_WINDOW_MIN = 15;
/** The delay doubles from one second and stops growing at these caps. */
export const MAX_ACCOUNT_DELAY_S = 5 * 60;
export const MAX_IP_DELAY_S = 15 * 60;

export type Failures = { count: number; last: Date | null };

/** Seconds still to wait before another attempt, or 0. */
export function waitSeconds(failures: Failures, free: number, capS: number, now: Date): number {
  if (failures.count < free || !failures.last) return 0;
  const delayS = Math.min(2 ** (failures.count - free), capS);
  const readyAt = failures.last.getTime() + delayS * 1000;
  return Math.max(0, Math.ceil((readyAt - now.getTime()) / 1000));
}

export const DEVICE_COOKIE = 'bw_device';
/** How many accounts one browser remembers. */
const MAX_REMEMBERED = 5;
export const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 3600;

function deviceMark(secret: Uint8Array, userId: string): string {
  return createHmac('sha256', secret).update(`recognised-device:v1:${userId}`).digest('base64url').slice(0, 32);
}

/** The marks a request's cookie carries (each `userId.hmac`). */
export function readDeviceMarks(cookieHeader: string | undefined): string[] {
  if (!cookieHeader) return [];
  for (const part of cookieHeader.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === DEVICE_COOKIE) return decodeURIComponent(rest.join('=')).split('~').filter(Boolean).slice(0, MAX_REMEMBERED);
  }
  return [];
}

/** True when one of the marks was issued by us for this account. */
export function isRecognisedDevice(secret: Uint8Array, marks: string[], userId: string): boolean {
  const expected = Buffer.from(`${userId}.${deviceMark(secret, userId)}`);
  return marks.some((mark) => {
    const given = Buffer.from(mark);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The cookie value after a successful sign-in: this account first, then up to four others. */
export function deviceCookieValue(secret: Uint8Array, marks: string[], userId: string): string {
  const mine = `${userId}.${deviceMark(secret, userId)}`;
  return [mine, ...marks.filter((mark) => !mark.startsWith(`${userId}.`))].slice(0, MAX_REMEMBERED).join('~');
}
