import fs from 'node:fs';
import path from 'node:path';

// One lock shared by the Playwright workers of a run (separate processes on one machine), as files
// in a directory of the run: a test that reads or changes what is platform-wide (every
// organization's figures, the platform settings, the portal's list of every site) holds it alone;
// every other test holds it shared, any number at once. A test that wants it alone first marks
// the lock as wanted (no shared holder joins after that), then waits for the shared holders to
// finish: so it cannot starve, and runs after the tests already running.
//
//   exclusive   created with O_EXCL by the test that runs alone (holds its pid)
//   shared-*    one per test running alongside others (holds its pid)
//
// A holder whose process is gone (a worker killed mid-test) is cleared by whoever waits on it.

const POLL_MS = 100;

export type Release = () => void;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the holder file names a live process; removes it when not. */
function isHeld(file: string): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(file, 'utf8'));
  } catch {
    return false; // released meanwhile
  }
  if (pid === process.pid || isAlive(pid)) return true;
  fs.rmSync(file, { force: true });
  return false;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class RunLock {
  private readonly exclusiveFile: string;

  constructor(private readonly dir: string) {
    this.exclusiveFile = path.join(dir, 'exclusive');
  }

  private sharedFiles(): string[] {
    return fs
      .readdirSync(this.dir)
      .filter((name) => name.startsWith('shared-'))
      .map((name) => path.join(this.dir, name));
  }

  /** Waits until no test runs alone (or wants to), then holds the lock alongside the others. */
  async shared(): Promise<Release> {
    fs.mkdirSync(this.dir, { recursive: true });
    const mine = path.join(this.dir, `shared-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
    for (;;) {
      if (!isHeld(this.exclusiveFile)) {
        fs.writeFileSync(mine, String(process.pid));
        // A test that wanted the lock alone meanwhile goes first.
        if (!isHeld(this.exclusiveFile)) return () => fs.rmSync(mine, { force: true });
        fs.rmSync(mine, { force: true });
      }
      await sleep(POLL_MS);
    }
  }

  /** Marks the lock as wanted alone, then waits for the tests running alongside to finish. */
  async exclusive(): Promise<Release> {
    fs.mkdirSync(this.dir, { recursive: true });
    for (;;) {
      try {
        fs.writeFileSync(this.exclusiveFile, String(process.pid), { flag: 'wx' });
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        isHeld(this.exclusiveFile); // clears a dead holder's file
        await sleep(POLL_MS);
      }
    }
    while (this.sharedFiles().some(isHeld)) await sleep(POLL_MS);
    return () => fs.rmSync(this.exclusiveFile, { force: true });
  }
}
