import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../server/paths';
import { SERVER_NODE_FLAGS } from './server-bundle.mjs';

// The server's V8 flags (decision 053) are given by `npm start` itself, so a newcomer's server, the
// e2e tests' (which run `npm start`) and the benchmarks' all run as measured.

describe('the server’s Node flags', () => {
  it('`npm start` gives every one of them to the node that runs the server', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const words = pkg.scripts.start!.split(/\s+/);
    expect(words[0]).toBe('node');
    expect(words.at(-1)).toBe('scripts/start.mjs');
    expect(words.slice(1, -1)).toEqual(SERVER_NODE_FLAGS);
  });

  it('this Node accepts them (a misspelt flag would stop the server from starting)', () => {
    const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const bad = spawnSync(process.execPath, ['--max-semi-space-sise=32', '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect(bad.status).not.toBe(0);
  });
});
