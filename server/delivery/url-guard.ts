import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { WEBHOOK_URL_MESSAGES } from '../../domain/webhooks';

// SSRF guard for every URL we post to (webhook endpoints, SSC callbacks, TSR connections): only
// http(s), and never an address on a loopback, private, link-local, shared, multicast or reserved
// network unless the platform setting `allowPrivateWebhookTargets` is on. A host name is checked
// for every address it resolves to when the URL is saved, and again at each delivery through the
// socket's own lookup, so a name that later resolves to 10.0.0.1 (DNS rebinding) is refused at
// connect time rather than trusted from the earlier check.

// Addresses are classified by ipaddr.js (its table of special-purpose ranges, RFC 6890 and
// successors), not by a list of our own: only what it calls 'unicast' is a public target. IPv6
// forms that carry or reach an IPv4 address are judged as follows (decision 032):
// - IPv4-mapped `::ffff:a.b.c.d` is the IPv4 address itself (the socket connects to it over IPv4):
//   judged as that address;
// - IPv4-compatible `::a.b.c.d` (deprecated), NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, the
//   translated `::ffff:0:a.b.c.d`, 6to4 `2002::/16` and Teredo `2001::/32` hand the packet to a
//   relay or translator that forwards it to an embedded IPv4 address: refused whatever that
//   address is (no webhook receiver needs a transition mechanism, and a public relay must not be
//   our way into 127.0.0.1 or 169.254.169.254).

/** True for an address webhooks must not reach unless private targets are allowed. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!isIP(bare)) return true; // not an address at all: refuse
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(bare);
  } catch {
    return true;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return isPrivateAddress(v6.toIPv4Address().toString());
    // ::/96 (unspecified, loopback and the deprecated IPv4-compatible form) — ipaddr.js calls ::a.b.c.d unicast.
    if (v6.parts.slice(0, 6).every((part) => part === 0)) return true;
  }
  return parsed.range() !== 'unicast';
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
