import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';

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
