import { isIP } from 'node:net';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { platformSettings } from '../../db/schema';

// Callback URLs of SSC webhook subscriptions, checked against server-side request forgery before
// they are stored: http(s) only, no credentials, and no loopback, private, link-local or otherwise
// internal address — unless the platform setting below allows them (a test rig, an on-premises
// install). The delivery engine checks again at send time, after DNS resolution.
// (To be unified with the outbound webhooks' validator.)

/** platform_settings key: true lets callbacks reach private and loopback addresses. */
export const ALLOW_PRIVATE_CALLBACKS_SETTING = 'ssc.allow_private_callback_urls';

export async function privateCallbacksAllowed(db: Db | Tx): Promise<boolean> {
  const [row] = await db.select({ value: platformSettings.value }).from(platformSettings).where(eq(platformSettings.key, ALLOW_PRIVATE_CALLBACKS_SETTING));
  return row?.value === true;
}

function ipv4Parts(address: string): number[] {
  return address.split('.').map(Number);
}

/** True for an IPv4 address no public callback should use. */
function isInternalIpv4(address: string): boolean {
  const [a, b] = ipv4Parts(address) as [number, number, number, number];
  return (
    a === 0 || // "this" network
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local (cloud metadata)
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  );
}

/** True for an IPv6 address no public callback should use (mapped IPv4 checked as IPv4). */
function isInternalIpv6(address: string): boolean {
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return isInternalIpv4(mapped[1]!);
  if (lower === '::' || lower === '::1') return true;
  const first = Number.parseInt(lower.split(':')[0] || '0', 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00;
}

/** Why the URL cannot be a callback, or null when it can. */
export function callbackUrlProblem(value: string, options: { allowPrivate: boolean }): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'callbackUrl must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'callbackUrl must use http or https';
  if (url.username || url.password) return 'callbackUrl must not carry a user name or password';
  if (value.length > 2000) return 'callbackUrl must be at most 2000 characters';
  if (options.allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) {
    return 'callbackUrl must not point at this server or a private network';
  }
  const kind = isIP(host);
  if ((kind === 4 && isInternalIpv4(host)) || (kind === 6 && isInternalIpv6(host))) {
    return 'callbackUrl must not point at this server or a private network';
  }
  return null;
}
