// `npm run bench`: runs every benchmark in order, each in its own process, echoes its output,
// prints the key lines at the end and writes them with the machine and the command into
// bench/RESULTS.md (between the generated-section markers; notes outside them are kept).
// `npm run bench -- demo-seed realtime-cluster`: only those phases; their results go to a section
// of their own (the full run's section is kept as it was).
// Knobs are environment variables, listed in each benchmark's header and echoed into RESULTS.md.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SERVER_NODE_FLAGS } from '../scripts/server-bundle.mjs';
import { benchDatabaseUrl } from './lib/bench-data';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(benchDir, '..');
const resultsFile = path.join(benchDir, 'RESULTS.md');
const FULL_RUN = {
  begin: '<!-- bench:begin (written by `npm run bench`; edit outside these markers) -->',
  end: '<!-- bench:end -->',
  heading: 'Latest run',
};
const PARTIAL_RUN = {
  begin: '<!-- bench:partial:begin (written by `npm run bench -- <phase …>`; edit outside these markers) -->',
  end: '<!-- bench:partial:end -->',
  heading: 'Latest run of some phases',
};
type Section = typeof FULL_RUN;

const benchmarks = [
  { file: 'availability-speedup.ts', title: 'Availability: our day grid vs the spec pattern (PostgreSQL, PGlite)' },
  { file: 'availability-flatness.ts', title: 'Availability latency from 10k to 1M bookings (PostgreSQL)' },
  { file: 'booking-throughput.ts', title: 'Booking throughput, 100 concurrent clients over HTTP (PostgreSQL)' },
  { file: 'ssc-schedule.ts', title: 'SSC schedule-appointment, 50 concurrent API clients over HTTP (PostgreSQL)' },
  { file: 'startup.ts', title: 'Startup (`npm start`, embedded PGlite)' },
  { file: 'upload-memory.ts', title: 'Upload memory: 4 × 10 documents of 9.9 MB at once (embedded PGlite)' },
  { file: 'public-page.ts', title: 'Public pages: JavaScript on the wire and form ready (Chromium, `npm start`)' },
  { file: 'gate-latency.ts', title: 'Gate event to a second screen: API call to the change in another browser’s DOM (Chromium, `npm start`)' },
  { file: 'plate-match.ts', title: 'Plate matching: one read against 5,000 expected vehicles' },
  { file: 'ocr.ts', title: 'Plate OCR on the server: one plate photo (tesseract.js, worker started)' },
  { file: 'plate-ocr-corpus.ts', title: 'Plate OCR accuracy: the plate corpus (96 plates, six typefaces, sizes, tilts, noise)' },
  { file: 'reports.ts', title: 'Reports: full 30-day set of one organization, 100k and 1M bookings (PostgreSQL) and PGlite' },
  { file: 'webhook-deliveries.ts', title: 'Webhook deliveries through the job runner: signed POSTs to a local receiver (PostgreSQL, PGlite)' },
  // Wall-clock budgets that unit tests used to assert (decision 027).
  { file: 'availability-compute.ts', title: 'Day grid in memory: 100 bays × 32 slots × 20,000 busy intervals' },
  { file: 'demo-seed.ts', title: 'Demo seed into a fresh database (PGlite, PostgreSQL)' },
  { file: 'realtime-cluster.ts', title: 'Live update across two server processes on one PostgreSQL (LISTEN/NOTIFY)' },
  { file: 'screens.ts', title: 'Every screen of every role: navigation to its data shown (Chromium, `npm start`, demo data)' },
  { file: 'realtime-fanout.ts', title: 'Realtime fan-out: 2,000 sockets of one organization on one node receive a booking change (PostgreSQL)' },
  { file: 'cluster-throughput.ts', title: 'Cluster: booking commits/s through HAProxy and PgBouncer, 1 and 3 nodes, vs the database ceiling' },
];
const KEY_LINE = /^(availability speedup:|availability latency \d|booking commits\/s:|slot storm:|ssc schedule-appointment:|server memory|startup first:|idle memory|upload memory:|public page JS:|form ready:|public form ready \(throttled phone\):|repeat visit requests:|gate event to second screen:|plate match:|ocr:|plate OCR exact:|reports( \(PGlite\))?:|webhook deliveries( \(PGlite\))?:|availability compute:|demo seed:|realtime across processes:|cluster booking commits\/s:|realtime fan-out:|slowest screen:|WARNING:|FAILED)/;

type Outcome = { file: string; title: string; lines: string[]; exitCode: number; seconds: number };

function runBenchmark(file: string): Promise<{ lines: string[]; exitCode: number }> {
  return new Promise((resolve, reject) => {
    // Most benchmarks run the app in their own process: with the flags `npm start` gives the server.
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', path.join('bench', file)], {
      cwd: root,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    const collect = (stream: NodeJS.ReadableStream, echo: NodeJS.WriteStream) => {
      let pending = '';
      stream.on('data', (chunk: Buffer) => {
        pending += chunk.toString();
        const complete = pending.split('\n');
        pending = complete.pop()!;
        for (const line of complete) {
          echo.write(`${line}\n`);
          if (line.trim() !== '') lines.push(line);
        }
      });
      stream.on('end', () => {
        if (pending.trim() !== '') {
          echo.write(`${pending}\n`);
          lines.push(pending);
        }
      });
    };
    collect(child.stdout!, process.stdout);
    collect(child.stderr!, process.stderr);
    child.on('error', reject);
    child.on('close', (code) => resolve({ lines, exitCode: code ?? 1 }));
  });
}

async function postgresVersion(): Promise<string> {
  const client = new pg.Client({ connectionString: benchDatabaseUrl() });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    return `PostgreSQL ${rows[0]!.server_version}`;
  } catch (error) {
    return `PostgreSQL not reachable (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function machineNotes(pgVersion: string, loadBefore: number[], loadAfter: number[]): string[] {
  const cpus = os.cpus();
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  return [
    `CPU: ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown'}`,
    `memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `OS: ${os.type()} ${os.release()} (${os.arch()}); Node ${process.version}; ${pgVersion} on ${new URL(benchDatabaseUrl()).host}`,
    `load average (1/5/15 min) before: ${load(loadBefore)}, after: ${load(loadAfter)} ` +
      '(the machine is shared: other work running at the same time slows every figure)',
  ];
}

function command(phases: string[]): string {
  const set = Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_'))
    .map(([name, value]) => `${name}=${value}`);
  return [...set, 'npm run bench', ...(phases.length ? ['--', ...phases] : [])].join(' ');
}

function writeResults(outcomes: Outcome[], startedAt: Date, notes: string[], phases: string[], { begin: BEGIN, end: END, heading }: Section): void {
  const keyLines = outcomes.flatMap((o) => o.lines.filter((line) => KEY_LINE.test(line)));
  const section = [
    BEGIN,
    `## ${heading}: ${startedAt.toISOString()}`,
    '',
    `Command: \`${command(phases)}\` (from the repository root; ${outcomes.reduce((s, o) => s + o.seconds, 0).toFixed(0)} s in all)`,
    '',
    ...notes.map((note) => `- ${note}`),
    '',
    '### Key lines',
    '',
    '```',
    ...keyLines,
    '```',
    '',
    ...outcomes.flatMap((o) => [
      `### ${o.title}`,
      '',
      `\`bench/${o.file}\`: ${o.seconds.toFixed(0)} s, ${o.exitCode === 0 ? 'passed' : `FAILED (exit ${o.exitCode})`}`,
      '',
      '```',
      ...o.lines.filter((line) => !line.startsWith('npm warn')),
      '```',
      '',
    ]),
    END,
  ].join('\n');
  const existing = fs.existsSync(resultsFile) ? fs.readFileSync(resultsFile, 'utf8') : '';
  const begin = existing.indexOf(BEGIN);
  const end = existing.indexOf(END);
  // A new section goes after the full run's (the first run of some phases), else at the top.
  const fullEnd = existing.indexOf(FULL_RUN.end);
  const next =
    begin !== -1 && end > begin
      ? `${existing.slice(0, begin)}${section}${existing.slice(end + END.length)}`
      : fullEnd !== -1
        ? `${existing.slice(0, fullEnd + FULL_RUN.end.length)}\n\n${section}${existing.slice(fullEnd + FULL_RUN.end.length)}`
        : `# Benchmark results\n\nWritten by \`npm run bench\` (bench/run.ts).\n\n${section}\n${existing}`;
  fs.writeFileSync(resultsFile, next.endsWith('\n') ? next : `${next}\n`);
}

const phases = process.argv.slice(2).map((name) => name.replace(/^bench\//, '').replace(/\.ts$/, ''));
const unknown = phases.filter((name) => !benchmarks.some((b) => b.file === `${name}.ts`));
if (unknown.length > 0) {
  console.error(`Unknown phase(s): ${unknown.join(', ')}. Phases: ${benchmarks.map((b) => b.file.replace(/\.ts$/, '')).join(', ')}`);
  process.exit(2);
}
const selected = phases.length ? benchmarks.filter((b) => phases.includes(b.file.replace(/\.ts$/, ''))) : benchmarks;

const startedAt = new Date();
const loadBefore = os.loadavg();
const pgVersion = await postgresVersion();
const outcomes: Outcome[] = [];
for (const bench of selected) {
  console.log(`\n=== ${bench.title} (bench/${bench.file}) ===`);
  const started = performance.now();
  const { lines, exitCode } = await runBenchmark(bench.file);
  outcomes.push({ ...bench, lines, exitCode, seconds: (performance.now() - started) / 1000 });
}
const notes = machineNotes(pgVersion, loadBefore, os.loadavg());
writeResults(outcomes, startedAt, notes, phases, phases.length ? PARTIAL_RUN : FULL_RUN);

console.log('\n=== Key lines ===');
for (const o of outcomes) for (const line of o.lines.filter((l) => KEY_LINE.test(l))) console.log(line);
const failed = outcomes.filter((o) => o.exitCode !== 0);
console.log(`\n${notes.join('\n')}\nResults written to ${path.relative(root, resultsFile)}.`);
if (failed.length > 0) {
  console.error(`Failed: ${failed.map((o) => o.file).join(', ')}`);
  process.exitCode = 1;
}
