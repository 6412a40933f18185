import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBay, createOrg, createSite } from '../../test/fixtures';
import { PDF_BYTES } from '../../test/files';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';

// A refused upload over a real keep-alive connection (issue 21 item 3). When the public booking
// endpoint refuses a multipart body before reading it to the end (too many fields → 413, an 11th
// file → 400), the rest of the body used to stay unread on a paused socket and the next request
// on that connection was never answered. Now the refusal says `Connection: close`, the rest is
// discarded and the connection ends, so a client sends its next request on a new one.
// A body cut off before its closing boundary is a 400, never a 500.

const NOW = '2026-11-23T00:00:00Z';
const BOUNDARY = 'baywise-test-boundary';
/** Well over the socket's and the request stream's buffers: the server cannot have read it all when it refuses. */
const BIG = Buffer.alloc(512 * 1024, 'x');
/** How long a test waits for an answer before it calls the connection hung. */
const ANSWER_WITHIN_MS = 5_000;

type Part = { name: string; value: string } | { name: string; fileName: string; bytes: Buffer };

function multipart(parts: Part[], { closed = true } = {}): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        part.bytes,
        Buffer.from('\r\n'),
      );
    }
  }
  if (closed) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const elevenFiles = () => multipart(Array.from({ length: 11 }, (_, i) => ({ name: 'documents', fileName: `d${i}.pdf`, bytes: i === 10 ? BIG : PDF_BYTES })));
const tooManyFields = () =>
  multipart([...Array.from({ length: 101 }, (_, i) => ({ name: `f${i}`, value: 'v' })), { name: 'documents', fileName: 'big.pdf', bytes: BIG }]);

type RawResponse = { status: number; headers: Record<string, string>; body: string };

/** Reads HTTP responses (Content-Length bodies) off a raw socket, one at a time, in order. */
function responseReader(socket: net.Socket) {
  let buffer = Buffer.alloc(0);
  let ended = false;
  let wake: (() => void) | null = null;
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    wake?.();
  });
  const onEnd = () => {
    ended = true;
    wake?.();
  };
  socket.on('end', onEnd);
  socket.on('close', onEnd);
  socket.on('error', () => undefined); // the server may reset a connection whose body it stopped reading

  function tryParse(): RawResponse | null {
    const headerEnd = buffer.indexOf('\r\n\r\n');
    if (headerEnd < 0) return null;
    const [statusLine, ...lines] = buffer.subarray(0, headerEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    if (buffer.length < headerEnd + 4 + length) return null;
    const body = buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
    buffer = buffer.subarray(headerEnd + 4 + length);
    return { status: Number(statusLine!.split(' ')[1]), headers, body };
  }

  /** The next response; 'closed' when the server ended the connection first; 'hung' when neither came in time. */
  return async function next(): Promise<RawResponse | 'closed' | 'hung'> {
    const deadline = Date.now() + ANSWER_WITHIN_MS;
    for (;;) {
      const response = tryParse();
      if (response) return response;
      if (ended) return 'closed';
      const left = deadline - Date.now();
      if (left <= 0) return 'hung';
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  };
}

describe.each(databaseKinds)('refused uploads over a real connection on %s', (kind) => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const org = await createOrg(t.ctx.database, { name: 'Socket Org' });
    const site = await createSite(t.ctx.database, org.id, { name: 'Socket Site', timeZone: 'Australia/Sydney' });
    await createBay(t.ctx.database, site, { name: 'S-1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  /** Sends the upload and then, on the same connection once its answer came, a health check. */
  async function uploadThenHealthOnOneSocket(body: Buffer) {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    const next = responseReader(socket);
    socket.write(
      `POST /api/public/bookings HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body);
    const first = await next();
    if (!socket.destroyed && socket.writable) socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    const second = await next();
    socket.destroy();
    return { first, second };
  }

  it.each([
    ['an 11th file', elevenFiles, 400],
    ['more fields than the form has', tooManyFields, 413],
  ])('after refusing %s it closes the connection instead of leaving the next request unanswered', async (_label, body, status) => {
    const { first, second } = await uploadThenHealthOnOneSocket(body());
    expect(first).not.toBe('hung');
    expect(first).not.toBe('closed');
    const refused = first as RawResponse;
    expect(refused.status).toBe(status);
    expect(refused.headers.connection).toBe('close');
    // Either an answer on the same connection or a clean end of it: never silence.
    expect(second).not.toBe('hung');
    if (typeof second === 'object') expect(second.status).toBe(200);
  });

  it('keeps the connection for the next request after an upload it read to the end', async () => {
    const { first, second } = await uploadThenHealthOnOneSocket(multipart([{ name: 'data', value: '{}' }]));
    expect((first as RawResponse).status).toBe(400); // the booking data is incomplete: read to the end, answered, kept
    expect((first as RawResponse).headers.connection).toBe('keep-alive');
    expect((second as RawResponse).status).toBe(200);
  });

  it('lets a keep-alive client carry on: its next request is answered (on a new connection)', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, body?: Buffer) =>
      new Promise<{ status: number; connection?: string }>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            method,
            path,
            agent,
            timeout: ANSWER_WITHIN_MS,
            headers: body ? { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': body.length } : {},
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
          },
        );
        req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within ${ANSWER_WITHIN_MS} ms`)));
        req.on('error', reject);
        req.end(body);
      });
    try {
      const refused = await send('POST', '/api/public/bookings', elevenFiles());
      const next = await send('GET', '/api/health').catch((error: Error) => error.message);
      expect(next).toMatchObject({ status: 200 });
      expect(refused).toEqual({ status: 400, connection: 'close' });
    } finally {
      agent.destroy();
    }
  });

  it('answers 400 for a multipart body cut off before its end, storing nothing and recording no server error', async () => {
    const cut = multipart([{ name: 'data', value: '{}' }, { name: 'documents', fileName: 'a.pdf', bytes: PDF_BYTES }], { closed: false });
    for (const payload of [cut, cut.subarray(0, cut.length - 40), cut.subarray(0, 30)]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/public/bookings',
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload,
      });
      expect(res.statusCode, res.body).toBe(400);
    }
    expect(await t.ctx.database.query('select id from bookings')).toEqual([]);
    expect(await t.ctx.database.query('select id from error_events')).toEqual([]);
  });
});
