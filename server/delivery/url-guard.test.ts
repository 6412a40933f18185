import { describe, expect, it } from 'vitest';
import { WEBHOOK_URL_MESSAGES } from '../../domain/webhooks';
import { signatureHeader, verifySignature } from './signature';
import { decryptWith, encryptWith } from './secret-box';
import { checkTargetUrl, isPrivateAddress, type Resolver } from './url-guard';

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
