import { describe, expect, it } from 'vitest';
import { WEBHOOK_URL_MESSAGES } from '../../domain/webhooks';
import { signatureHeader, verifySignature } from './signature';
import { decryptWith, encryptWith } from './secret-box';
import { checkTargetUrl, guardedPost, isPrivateAddress, type Resolver } from './url-guard';

// The SSRF guard's address rules and name resolution, the signature scheme of docs/webhooks.md,
// and the sealed-secret format. (Pure: no network, a resolver of our own.)

const resolver = (table: Record<string, string[]>): Resolver => async (host) => {
  const addresses = table[host];
  if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', '::ffff:127.0.0.1',
    '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::a9fe:a9fe', 'ff02::1', 'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

// Issue 21 item 5: every IPv6 spelling of a non-public address, classified by ipaddr.js, refused
// when the URL is saved (a literal, or a name whose DNS answer is that address) and again at
// delivery (the socket's lookup gets that DNS answer).
const REFUSED_FORMS: Array<[string, string]> = [
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback, dotted'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped cloud metadata'],
  ['::ffff:c0a8:101', 'IPv4-mapped 192.168.1.1'],
  ['::ffff:0:7f00:1', 'IPv4-translated (RFC 6145)'],
  ['::7f00:1', 'IPv4-compatible loopback (deprecated)'],
  ['::127.0.0.1', 'IPv4-compatible, dotted'],
  ['::5db8:d70e', 'IPv4-compatible public (deprecated form)'],
  ['2002:7f00:1::', '6to4 of 127.0.0.1'],
  ['2002:a9fe:a9fe::1', '6to4 of 169.254.169.254'],
  ['2002:5db8:d70e::1', '6to4 of a public address (relay)'],
  ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of 169.254.169.254'],
  ['64:ff9b::5db8:d70e', 'NAT64 of a public address (translator)'],
  ['64:ff9b:1::a00:1', 'local-use NAT64 (RFC 8215)'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ['2001::1', 'Teredo prefix'],
  ['2001:2::1', 'benchmarking'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation (RFC 9637)'],
  ['2001:10::1', 'ORCHID'],
  ['100::1', 'discard'],
  ['5f00::1', 'segment routing'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback, long form'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local with a zone'],
  ['fec0::1', 'site-local (deprecated)'],
  ['fc00::1', 'unique local'],
  ['fd00:ec2::254', 'unique local (AWS metadata over IPv6)'],
  ['ff02::1', 'multicast'],
  ['127.0.0.1', 'IPv4 loopback'],
  ['169.254.169.254', 'IPv4 link-local'],
  ['192.0.0.8', 'IPv4 IETF protocol assignments'],
  ['192.88.99.1', 'IPv4 6to4 relay anycast'],
  ['192.175.48.1', 'IPv4 AS112'],
  ['255.255.255.255', 'IPv4 broadcast'],
];
const ALLOWED_FORMS = ['93.184.215.14', '2606:4700::1111', '2a00:1450:4001:82a::200e', '::ffff:5db8:d70e', '::ffff:93.184.215.14'];

describe('IPv6 forms of special-purpose addresses (issue 21 item 5)', () => {
  const names = Object.fromEntries(REFUSED_FORMS.map(([address], i) => [`t${i}.example.com`, [address]]));
  const resolve = resolver({ ...names, 'public.example.com': ['2606:4700::1111'] });

  it.each(REFUSED_FORMS)('refuses %s (%s) as an address, a URL, a DNS answer when saved and at delivery', async (address) => {
    expect(isPrivateAddress(address)).toBe(true);
    const name = `t${REFUSED_FORMS.findIndex(([a]) => a === address)}.example.com`;
    if (!address.includes('%')) {
      const literal = address.includes(':') ? `http://[${address}]:8080/hook` : `http://${address}:8080/hook`;
      expect(await checkTargetUrl(literal, { allowPrivate: false, resolve }), literal).toEqual({ ok: false, message: WEBHOOK_URL_MESSAGES.private });
      expect(await guardedPost(literal, {}, '{}', { allowPrivate: false, resolve }), literal).toMatchObject({ statusCode: null, error: WEBHOOK_URL_MESSAGES.private });
    }
    expect(await checkTargetUrl(`https://${name}/hook`, { allowPrivate: false, resolve })).toEqual({ ok: false, message: WEBHOOK_URL_MESSAGES.private });
    // Delivery: the name resolved when the post connects (a name that pointed elsewhere when saved).
    expect(await guardedPost(`http://${name}:8080/hook`, {}, '{}', { allowPrivate: false, resolve, timeoutMs: 2_000 })).toMatchObject({
      statusCode: null,
      error: WEBHOOK_URL_MESSAGES.private,
    });
  });

  it.each(ALLOWED_FORMS)('allows the public address %s', async (address) => {
    expect(isPrivateAddress(address)).toBe(false);
    const literal = address.includes(':') ? `https://[${address}]/hook` : `https://${address}/hook`;
    expect(await checkTargetUrl(literal, { allowPrivate: false, resolve })).toEqual({ ok: true });
  });

  it('refuses a name when any one of its answers is special', async () => {
    const mixed = resolver({ 'mixed6.example.com': ['2606:4700::1111', '2002:7f00:1::'] });
    expect(await checkTargetUrl('https://mixed6.example.com/', { allowPrivate: false, resolve: mixed })).toEqual({ ok: false, message: WEBHOOK_URL_MESSAGES.private });
    expect(await guardedPost('http://mixed6.example.com/', {}, '{}', { allowPrivate: false, resolve: mixed })).toMatchObject({ error: WEBHOOK_URL_MESSAGES.private });
  });
});

describe('checkTargetUrl', () => {
  const resolve = resolver({
    'hooks.example.com': ['93.184.215.14'],
    'internal.example.com': ['10.0.0.5'],
    'mixed.example.com': ['93.184.215.14', '192.168.0.10'],
    'v6local.example.com': ['fd00::5'],
  });
  const check = (url: string, allowPrivate = false) => checkTargetUrl(url, { allowPrivate, resolve });

  it('allows public http(s) targets', async () => {
    expect(await check('https://hooks.example.com/baywise')).toEqual({ ok: true });
    expect(await check('http://93.184.215.14:8080/x')).toEqual({ ok: true });
  });

  it('refuses other schemes and credentials in the URL', async () => {
    expect(await check('ftp://hooks.example.com/')).toEqual({ ok: false, message: WEBHOOK_URL_MESSAGES.scheme });
    expect(await check('file:///etc/passwd')).toEqual({ ok: false, message: WEBHOOK_URL_MESSAGES.scheme });
    expect(await check('https://user:pw@hooks.example.com/')).toEqual({ ok: false, message: WEBHOOK_URL_MESSAGES.credentials });
    expect(await check('not a url')).toEqual({ ok: false, message: WEBHOOK_URL_MESSAGES.invalid });
  });

  it('refuses literal private addresses in every spelling the URL parser accepts', async () => {
    for (const url of ['http://127.0.0.1/', 'http://2130706433/', 'http://0x7f.1/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://169.254.169.254/latest/meta-data']) {
      expect(await check(url), url).toEqual({ ok: false, message: WEBHOOK_URL_MESSAGES.private });
    }
  });

  it('refuses a host name resolving to a private address (any of its addresses), and one that does not resolve', async () => {
    expect(await check('https://internal.example.com/')).toEqual({ ok: false, message: WEBHOOK_URL_MESSAGES.private });
    expect(await check('https://mixed.example.com/')).toEqual({ ok: false, message: WEBHOOK_URL_MESSAGES.private });
    expect(await check('https://v6local.example.com/')).toEqual({ ok: false, message: WEBHOOK_URL_MESSAGES.private });
    expect(await check('https://nowhere.example.com/')).toEqual({ ok: false, message: WEBHOOK_URL_MESSAGES.unresolvable });
  });

  it('allows private targets when the platform setting is on (still http(s) only)', async () => {
    expect(await check('http://127.0.0.1:9999/', true)).toEqual({ ok: true });
    expect(await check('https://internal.example.com/', true)).toEqual({ ok: true });
    expect(await check('gopher://127.0.0.1/', true)).toEqual({ ok: false, message: WEBHOOK_URL_MESSAGES.scheme });
  });
});

describe('signature', () => {
  const secret = 'whsec_test';
  const body = '{"id":"e1","type":"booking.created"}';

  it('verifies its own header, and refuses a changed body, another secret and an old timestamp', () => {
    const header = signatureHeader(secret, 1_795_000_000, body);
    expect(header).toMatch(/^t=1795000000,v1=[0-9a-f]{64}$/);
    expect(verifySignature(secret, header, body, 1_795_000_010)).toBe(true);
    expect(verifySignature(secret, header, `${body} `, 1_795_000_010)).toBe(false);
    expect(verifySignature('whsec_other', header, body, 1_795_000_010)).toBe(false);
    expect(verifySignature(secret, header, body, 1_795_000_000 + 301)).toBe(false);
  });
});

describe('secret box', () => {
  it('round-trips, uses a fresh IV each time, and refuses a tampered value', () => {
    const key = Buffer.alloc(32, 7);
    const a = encryptWith(key, 'whsec_abc');
    const b = encryptWith(key, 'whsec_abc');
    expect(a).not.toBe(b);
    expect(decryptWith(key, a)).toBe('whsec_abc');
    const tampered = `${a.slice(0, -2)}${a.endsWith('A') ? 'B' : 'A'}${a.slice(-1)}`;
    expect(() => decryptWith(key, tampered)).toThrow();
    expect(() => decryptWith(Buffer.alloc(32, 8), a)).toThrow();
  });
});
