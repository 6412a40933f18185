import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunLock } from './run-lock';

// The e2e run's lock (e2e/run-lock.ts): tests alongside each other, a test that wants it alone
// waits for them and keeps new ones out until it is done, and a dead holder does not block.

const dirs: string[] = [];
const lockDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-run-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Whether the promise has settled within a few polls of the lock. */
const settlesSoon = (promise: Promise<unknown>) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 400))]);

describe('RunLock', () => {
  it('lets any number of tests hold it alongside each other', async () => {
    const lock = new RunLock(lockDir());
    const releases = await Promise.all([lock.shared(), lock.shared(), lock.shared()]);
    for (const release of releases) release();
  });

  it('holds a test that wants it alone until the others are done, and keeps new ones out meanwhile', async () => {
    const lock = new RunLock(lockDir());
    const releaseFirst = await lock.shared();
    const alone = lock.exclusive();
    expect(await settlesSoon(alone)).toBe(false);

    const later = lock.shared(); // arrives after the one that wants it alone
    releaseFirst();
    const releaseAlone = await alone;
    expect(await settlesSoon(later)).toBe(false);
    releaseAlone();
    (await later)();
  });

  it('lets one test at a time have it alone', async () => {
    const lock = new RunLock(lockDir());
    const releaseOne = await lock.exclusive();
    const two = lock.exclusive();
    expect(await settlesSoon(two)).toBe(false);
    releaseOne();
    (await two)();
  });

  it('clears a holder whose process is gone', async () => {
    const dir = lockDir();
    const child = spawn(process.execPath, ['-e', '']);
    const pid = child.pid!;
    await new Promise((resolve) => child.once('exit', resolve));
    fs.writeFileSync(path.join(dir, `shared-${pid}-1-x`), String(pid));
    fs.writeFileSync(path.join(dir, 'exclusive'), String(pid));

    const lock = new RunLock(dir);
    (await lock.exclusive())();
    (await lock.shared())();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
