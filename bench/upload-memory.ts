// Upload memory: four anonymous booking submissions at once, each with ten 9.9 MB PDF documents,
// against the real HTTP app (embedded database, local file storage). Samples the server's RSS
// every 50 ms and prints `upload memory: idle N MB, peak M MB (+D MB)`.
// Run alone: npx tsx bench/upload-memory.ts
// Knobs: BENCH_UPLOAD_REQUESTS (default 4), BENCH_UPLOAD_FILES (default 10), BENCH_UPLOAD_MB (default 9.9).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createBenchOrg, openBench } from './lib/bench-data';
import { envInt } from './lib/stats';

const NOW = '2026-11-23T00:00:00Z';
const requests = envInt('BENCH_UPLOAD_REQUESTS', 4);
const filesPerRequest = envInt('BENCH_UPLOAD_FILES', 10);
const megabytes = Number(process.env.BENCH_UPLOAD_MB ?? 9.9);

/** A valid PDF of about `bytes` bytes (a comment line padded out). */
function bigPdf(bytes: number): Buffer {
  const head = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n%');
  const tail = Buffer.from('\ntrailer<</Root 1 0 R>>\n%%EOF\n');
  return Buffer.concat([head, Buffer.alloc(bytes - head.length - tail.length, 'a'), tail]);
}

const rssMb = () => Math.round(process.memoryUsage().rss / 1_048_576);

const t = await openBench('pglite', { now: NOW, env: { RATE_LIMIT_DISABLED: 'true' } });
try {
  const org = await createBenchOrg(t.ctx.database, { name: 'Upload Freight', sites: 1, baysPerSite: 12 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  // The clients are curl processes streaming the files from disk: the figure is the server's alone.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-upload-bench-'));
  const pdfFile = path.join(dir, 'consignment.pdf');
  fs.writeFileSync(pdfFile, bigPdf(Math.round(megabytes * 1_000_000)));
  global.gc?.();
  const idle = rssMb();
  let peak = idle;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb())), 50);
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: requests }, (_, i) => {
      const data = JSON.stringify({
        orgId: org.orgId,
        tsrNumber: `TSR-UP-${i}`,
        tenantName: 'Upload Freight',
        contactName: 'Una Loader',
        tenantEmail: 'una@upload.example',
        date: '2026-11-25',
        slot: `${String(8 + i).padStart(2, '0')}:00`,
        expectedDurationMin: 30,
        vehicleType: 'rigid',
        vehicleRegistration: `UP${i}`,
        vehicleHeightM: 3.5,
        driverInductionCompleted: true,
        termsAccepted: true,
      });
      const args = ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-F', `data=${data}`];
      for (let f = 0; f < filesPerRequest; f++) args.push('-F', `documents=@${pdfFile};filename=consignment-${f}.pdf;type=application/pdf`);
      args.push(`http://127.0.0.1:${port}/api/public/bookings`);
      return new Promise<string>((resolve, reject) =>
        execFile('curl', args, { maxBuffer: 1024 * 1024 }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
      );
    }),
  );
  clearInterval(timer);
  console.log(
    `setup: ${requests} concurrent submissions × ${filesPerRequest} files of ${megabytes} MB (${((requests * filesPerRequest * megabytes) | 0)} MB in all) ` +
      `in ${((performance.now() - started) / 1000).toFixed(1)} s; answers: ${answers.join(', ')}`,
  );
  console.log(`upload memory: idle ${idle} MB, peak ${peak} MB (+${peak - idle} MB)`);
  fs.rmSync(dir, { recursive: true, force: true });
} finally {
  await t.close();
}
