import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { createLogger } from './logger';
import { createUser, signIn } from './test/fixtures';
import { createTestApp } from './test/harness';
import { openTestSocket } from './test/ws-client';

async function firstLine(pretty: boolean): Promise<string> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const log = await createLogger('info', { pretty, destination: out });
  log.info({ url: 'http://localhost:3000' }, 'Baywise is ready');
  log.flush?.();
  await new Promise((resolve) => setImmediate(resolve));
  return text.split('\n')[0]!;
}

describe('server logger', () => {
  it('writes readable lines for a terminal', async () => {
    const line = await firstLine(true);
    expect(line).toMatch(/^\[\d{2}:\d{2}:\d{2}\] INFO: Baywise is ready$/);
  });

  it('writes JSON lines otherwise', async () => {
    const line = await firstLine(false);
    expect(JSON.parse(line)).toMatchObject({ level: 30, msg: 'Baywise is ready', url: 'http://localhost:3000' });
  });
});

describe('request log', () => {
  it('redacts ?access_token= (the realtime socket) and capability tokens in paths, and keeps the rest of the URL', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const t = await createTestApp('pglite');
    const app = await buildApp(t.ctx, { logger: await createLogger('info', { pretty: false, destination: out }) });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as { port: number };
      await createUser(t.ctx.database, { email: 'logged@example.test' });
      const session = await signIn(app, 'logged@example.test');
      const token = session.access_token;
      // The browser's socket with its token in the query string, as the web app may open it.
      const socket = await openTestSocket(`ws://127.0.0.1:${port}/api/realtime?access_token=${encodeURIComponent(token)}&v=2`);
      socket.send({ type: 'ping' });
      await socket.next();
      socket.close();
      await app.inject({ method: 'GET', url: `/api/health?access_token=${token}&refresh_token=also-secret` });
      const manageToken = 'Xy7_abcdefghijklmnopqrstuvwxyz0123456789';
      await app.inject({ method: 'GET', url: `/api/public/manage/${manageToken}` });
      await socket.closed;
      app.log.flush?.();

      const requests = text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { req?: { url: string; method: string } })
        .filter((line) => line.req)
        .map((line) => line.req!.url);
      expect(requests).toEqual(
        expect.arrayContaining([
          '/api/realtime?access_token=[redacted]&v=2',
          '/api/health?access_token=[redacted]&refresh_token=[redacted]',
          '/api/public/manage/:token',
        ]),
      );
      expect(text).not.toContain(token);
      expect(text).not.toContain(token.split('.')[2]);
      expect(text).not.toContain('also-secret');
      expect(text).not.toContain(manageToken);
    } finally {
      await app.close();
      await t.close();
    }
  });
});
