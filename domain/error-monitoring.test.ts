import { describe, expect, it } from 'vitest';
import { clientErrorReportSchema } from './error-monitoring';
import { fingerprintBasis, isNoiseReport, normaliseMessage, parseStackFrames, redactValue, sanitizeUrl, topFrames } from './error-monitoring-rules';

describe('normaliseMessage', () => {
  it('takes out what differs between occurrences of one fault', () => {
    expect(normaliseMessage('Booking 4f9c1a2e-8d3b-4c5a-9e7f-0a1b2c3d4e5f of ops@acme.example failed after 1500 ms')).toBe(
      'Booking <id> of <email> failed after <n> ms',
    );
    expect(normaliseMessage('fetch https://api.example.test/x?id=3 failed: deadbeef42 at offset 12')).toBe('fetch <url> failed: <hex> at offset <n>');
    expect(normaliseMessage('Failed query: select * from bays where id = $1\nparams: 4f9c1a2e-8d3b-4c5a-9e7f-0a1b2c3d4e5f,Acme')).toBe(
      'Failed query: select * from bays where id = $<n> params: <params>',
    );
    // Words with hex letters only are words.
    expect(normaliseMessage('Cannot read properties of undefined (reading  "face")')).toBe('Cannot read properties of undefined (reading "face")');
  });
});

describe('stack frames', () => {
  const v8 = [
    'TypeError: Cannot read properties of undefined',
    '    at toDto (/srv/baywise/server/modules/bays/org-bays.service.ts:120:14)',
    '    at async Object.handler (/srv/baywise/server/modules/bays/org-bays.routes.ts:40:7)',
    '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
    '    at new Promise (<anonymous>)',
    '    at preHandler (/srv/baywise/node_modules/fastify/lib/hooks.js:10:3)',
  ].join('\n');

  it('reads V8 and Firefox frames without line and column, from the project folder on', () => {
    expect(parseStackFrames(v8).slice(0, 2)).toEqual([
      { fn: 'toDto', file: 'server/modules/bays/org-bays.service.ts' },
      { fn: 'Object.handler', file: 'server/modules/bays/org-bays.routes.ts' },
    ]);
    expect(parseStackFrames('render@http://localhost:3000/assets/index-B1x_2Yz9.js:1:2345\n@http://localhost:3000/assets/vendor-Cq9-Zz1a.js:3:4')).toEqual([
      { fn: 'render', file: 'index.js' },
      { fn: '', file: 'vendor.js' },
    ]);
  });

  it('keeps our own top frames; browser frames by file only', () => {
    expect(topFrames(v8, 'server')).toEqual(['toDto server/modules/bays/org-bays.service.ts', 'Object.handler server/modules/bays/org-bays.routes.ts']);
    expect(topFrames('Error\n    at a (/x/node_modules/pg/lib/client.js:1:1)\n    at b (/x/node_modules/pg/lib/query.js:2:2)', 'server')).toEqual([
      'a node_modules/pg/lib/client.js',
      'b node_modules/pg/lib/query.js',
    ]);
    expect(topFrames('TypeError: x\n    at Qe (http://localhost:3000/assets/index-B1x_2Yz9.js:1:2345)', 'browser')).toEqual(['index.js']);
  });

  it('gives one basis to the same fault across line numbers, releases and ids, and another to a different place', () => {
    const at = (line: number, hash: string) => `TypeError: x\n    at Qe (http://localhost:3000/assets/index-${hash}.js:1:${line})\n    at Xy (http://localhost:3000/assets/router-${hash}.js:9:${line})`;
    const one = fingerprintBasis({ source: 'browser', name: 'TypeError', message: 'Order 17 not found', stack: at(100, 'AAAAAAAA') });
    const two = fingerprintBasis({ source: 'browser', name: 'TypeError', message: 'Order 4242 not found', stack: at(999, 'BBBB_-BB') });
    expect(one).toBe(two);
    expect(fingerprintBasis({ source: 'server', name: 'TypeError', message: 'Order 17 not found', stack: at(100, 'AAAAAAAA') })).not.toBe(one);
    expect(fingerprintBasis({ source: 'browser', name: 'RangeError', message: 'Order 17 not found', stack: at(100, 'AAAAAAAA') })).not.toBe(one);
    expect(
      fingerprintBasis({ source: 'browser', name: 'TypeError', message: 'Order 17 not found', stack: 'TypeError: x\n    at Qe (http://localhost:3000/assets/other-AAAAAAAA.js:1:1)' }),
    ).not.toBe(one);
  });
});

describe('what is kept of a request', () => {
  it('keeps path and query, with tokens and sensitive parameters redacted', () => {
    expect(sanitizeUrl('https://app.example/book/manage/Xy7_abc?from=mail')).toBe('/book/manage/:token?from=mail');
    expect(sanitizeUrl('/api/public/manage/abcdefghijklmnopqrstuvwxyz012345/cancel')).toBe('/api/public/manage/:token/cancel');
    expect(sanitizeUrl('/reset-password?token=secret123&next=%2Flogin')).toBe('/reset-password?token=[redacted]&next=%2Flogin');
    expect(sanitizeUrl('/api/orgs/4f9c1a2e-8d3b-4c5a-9e7f-0a1b2c3d4e5f/bays?page=2&api_key=k')).toBe(
      '/api/orgs/4f9c1a2e-8d3b-4c5a-9e7f-0a1b2c3d4e5f/bays?page=2&api_key=[redacted]',
    );
  });

  it('redacts sensitive fields at any depth and bounds the size', () => {
    expect(
      redactValue({ email: 'a@b.example', password: 'hunter2', nested: { refresh_token: 'r', list: [{ currentPassword: 'x', ok: 1 }] }, long: 'y'.repeat(250) }),
    ).toEqual({
      email: 'a@b.example',
      password: '[redacted]',
      nested: { refresh_token: '[redacted]', list: [{ currentPassword: '[redacted]', ok: 1 }] },
      long: `${'y'.repeat(200)}…`,
    });
    expect(redactValue(Array.from({ length: 25 }, (_, i) => i))).toHaveLength(21);
    expect(redactValue(new Uint8Array(10))).toBe('[binary, 10 bytes]');
    expect(redactValue({ a: { b: { c: { d: { e: 1 } } } } })).toEqual({ a: { b: { c: { d: '[…]' } } } });
  });
});

describe('browser reports', () => {
  it('treats the ResizeObserver warning, opaque script errors and extension-only stacks as noise', () => {
    expect(isNoiseReport({ message: 'ResizeObserver loop completed with undelivered notifications.' })).toBe(true);
    expect(isNoiseReport({ message: 'Script error.' })).toBe(true);
    expect(isNoiseReport({ message: 'x', stack: 'Error: x\n    at f (chrome-extension://abc/content.js:1:2)' })).toBe(true);
    expect(isNoiseReport({ message: 'x', stack: 'Error: x\n    at f (chrome-extension://abc/content.js:1:2)\n    at g (http://localhost/assets/index.js:1:2)' })).toBe(false);
    expect(isNoiseReport({ message: 'Cannot read properties of undefined' })).toBe(false);
  });

  it('validates a report with readable messages', () => {
    expect(clientErrorReportSchema.safeParse({ kind: 'error', message: 'x', url: '/' }).success).toBe(true);
    const bad = clientErrorReportSchema.safeParse({ kind: 'crash', message: '  ', url: '/', cookie: 'x' });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.message)).toEqual(['kind must be one of error, unhandledrejection, render', 'message is required', 'Unrecognized key: "cookie"']);
  });
});
