import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { WEBHOOK_URL_MESSAGES } from '../../domain/webhooks';

// SSRF guard for every URL we post to (webhook endpoints, SSC callbacks, TSR connections): only
// http(s), and never an address on a loopback, private, link-local, shared, multicast or reserved
// network unless the platform setting `allowPrivateWebhookTargets` is on. A host name is checked
// for every address it resolves to when the URL is saved, and again at each delivery through the
// socket's own lookup, so a name that later resolves to 10.0.0.1 (DNS rebinding) is refused at
// connect time rather than trusted from the earlier check.

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata 169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail included). */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/^\[|\]$/g, '').split('%')[0]!;
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4Tail) {
    const parts = v4Tail[1]!.split('.').map(Number);
    text = `${text.slice(0, -v4Tail[1]!.length)}${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = text.includes('::') ? [...headGroups, ...Array(missing).fill('0'), ...tailGroups] : headGroups;
  if (groups.length !== 8) return null;
  return groups.map((g) => parseInt(g, 16));
}

/** The IPv4 address carried inside an IPv4-mapped (::ffff:a.b.c.d), -compatible or NAT64 (64:ff9b::/96) IPv6 address. */
function embeddedIPv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const v4 = () => `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) return v4();
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4();
  return null;
}

/** True for an address webhooks must not reach unless private targets are allowed. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIPv4(bare);
    if (v4) return blocked.check(v4, 'ipv4');
    return blocked.check(bare.split('%')[0]!, 'ipv6');
  }
  return true; // not an address at all: refuse
}

export type ResolvedAddress = { address: string; family: number };
/** Resolves a host name to every address (tests pass their own). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export type TargetCheck = { ok: true } | { ok: false; message: string };

export type GuardOptions = { allowPrivate: boolean; resolve?: Resolver };

/** What can be told without DNS: the scheme, credentials, a literal address; 'resolve' when a name must be looked up. */
function checkWithoutDns(raw: string, allowPrivate: boolean): TargetCheck | 'resolve' {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: WEBHOOK_URL_MESSAGES.invalid };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, message: WEBHOOK_URL_MESSAGES.scheme };
  if (url.username || url.password) return { ok: false, message: WEBHOOK_URL_MESSAGES.credentials };
  if (allowPrivate) return { ok: true };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPrivateAddress(host) ? { ok: false, message: WEBHOOK_URL_MESSAGES.private } : { ok: true };
  return 'resolve';
}

/** Checks a URL before it is saved: scheme, credentials, and every address its host resolves to. */
export async function checkTargetUrl(raw: string, options: GuardOptions): Promise<TargetCheck> {
  const first = checkWithoutDns(raw, options.allowPrivate);
  if (first !== 'resolve') return first;
  const host = new URL(raw).hostname;
  let addresses: ResolvedAddress[];
  try {
    addresses = await (options.resolve ?? systemResolver)(host);
  } catch {
    return { ok: false, message: WEBHOOK_URL_MESSAGES.unresolvable };
  }
  if (addresses.length === 0) return { ok: false, message: WEBHOOK_URL_MESSAGES.unresolvable };
  if (addresses.some((a) => isPrivateAddress(a.address))) return { ok: false, message: WEBHOOK_URL_MESSAGES.private };
  return { ok: true };
}

/** The socket's lookup: resolves, then refuses the connection if any address is private. */
function guardedLookup(options: GuardOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    (options.resolve ?? systemResolver)(hostname).then(
      (addresses) => {
        if (!options.allowPrivate && (addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address)))) {
          callback(Object.assign(new Error(WEBHOOK_URL_MESSAGES.private), { code: 'EPRIVATE' }), '', 4);
          return;
        }
        if ((lookupOptions as { all?: boolean }).all) (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}

export type PostResult = { statusCode: number | null; durationMs: number; error: string | null };

/** The longest a receiver may take to answer. */
export const POST_TIMEOUT_MS = 10_000;

/**
 * Posts `body` to `url` through the SSRF guard; never throws. A 2xx answer is a success;
 * redirects are not followed (the endpoint's URL is the one that was checked).
 */
export async function guardedPost(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: GuardOptions & { method?: 'POST' | 'PATCH'; timeoutMs?: number; agent?: { http: http.Agent; https: https.Agent } },
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // A literal address is checked here (the socket does no lookup for it); a name by the socket's lookup.
  const check = checkWithoutDns(url, options.allowPrivate);
  if (check !== 'resolve' && !check.ok) return { statusCode: null, durationMs: elapsed(), error: check.message };
  const target = new URL(url);
  const isHttps = target.protocol === 'https:';
  const send = (retried: boolean): Promise<PostResult> =>
    new Promise<PostResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<PostResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        resolve({ ...result, durationMs: elapsed() });
      };
      const request = (isHttps ? https : http).request(
        target,
        {
          method: options.method ?? 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'Baywise-Webhooks/1', ...headers, 'content-length': Buffer.byteLength(body) },
          lookup: guardedLookup(options),
          agent: options.agent ? (isHttps ? options.agent.https : options.agent.http) : undefined,
          timeout: options.timeoutMs ?? POST_TIMEOUT_MS,
        },
        (response) => {
          const statusCode = response.statusCode ?? null;
          // The answer's body is not kept: read and dropped so the socket can be reused.
          response.resume();
          response.on('end', () =>
            finish({ statusCode, error: statusCode !== null && statusCode >= 200 && statusCode < 300 ? null : `The receiver answered ${statusCode}` }),
          );
          response.on('error', (error) => finish({ statusCode, error: error.message }));
        },
      );
      request.on('timeout', () => request.destroy(new Error(`No answer within ${Math.round((options.timeoutMs ?? POST_TIMEOUT_MS) / 1000)} s`)));
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive socket the receiver closed as we reused it (its idle timeout): nothing was
        // received, so the post is sent once more on a new connection (Node’s documented remedy;
        // receivers drop a repeat by its event id).
        if (!retried && !settled && request.reusedSocket && error.code === 'ECONNRESET') {
          settled = true;
          resolve(send(true));
          return;
        }
        const message = error.code === 'EPRIVATE' ? WEBHOOK_URL_MESSAGES.private : error.code === 'ENOTFOUND' ? WEBHOOK_URL_MESSAGES.unresolvable : error.message;
        finish({ statusCode: null, error: message || error.code || 'Connection failed' });
      });
      request.end(body);
    });
  return send(false);
}
