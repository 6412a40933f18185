// Plate OCR accuracy on the plate corpus (bench/plate-corpus: 96 plates in six DejaVu typefaces,
// 18–60 px characters, tilted up to 6°, noise, blur, four plate colours, PNG and JPEG; see
// generate.ts): each picture read once by the server's reader (server/ocr/plate-ocr.ts), and the
// read compared exactly with the truth (letters and digits, spacing ignored: O is not 0 here).
// Prints every miss, the figure per typeface, and `plate OCR exact: N/M`; exits 1 below 95 %.
// Run alone: npx tsx bench/plate-ocr-corpus.ts
// Options: --corpus <folder> reads another corpus (a held-out one from generate.ts --seed N --out <folder>).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalisePlate } from '../domain/plate-match';
import { closePlateOcr, readPlate } from '../server/ocr/plate-ocr';
import type { CorpusEntry } from './plate-corpus/generate';
import { ms, summarize } from './lib/stats';

const TARGET = 0.95;
const corpusOption = process.argv.indexOf('--corpus');
const corpusDir = corpusOption > 0 ? path.resolve(process.argv[corpusOption + 1]!) : path.join(path.dirname(fileURLToPath(import.meta.url)), 'plate-corpus');
const entries = JSON.parse(fs.readFileSync(path.join(corpusDir, 'truth.json'), 'utf8')) as CorpusEntry[];

try {
  const byTypeface = new Map<string, { exact: number; total: number }>();
  const times: number[] = [];
  let exact = 0;
  for (const entry of entries) {
    const image = fs.readFileSync(path.join(corpusDir, 'images', entry.file));
    const started = performance.now();
    const result = await readPlate(image);
    times.push(performance.now() - started);
    const ok = result.plate !== null && normalisePlate(result.plate) === normalisePlate(entry.plate);
    const tally = byTypeface.get(entry.typeface) ?? { exact: 0, total: 0 };
    tally.total++;
    if (ok) {
      tally.exact++;
      exact++;
    } else {
      console.log(
        `miss ${entry.file}: ${entry.plate} read as ${result.plate ?? `nothing (${result.reason})`} ` +
          `(${entry.charHeight} px, tilt ${entry.tilt}°, noise ${entry.noise}, blur ${entry.blur}, ${entry.plateStyle})`,
      );
    }
    byTypeface.set(entry.typeface, tally);
  }
  console.log(`by typeface: ${[...byTypeface].map(([name, t]) => `${name} ${t.exact}/${t.total}`).join(', ')}`);
  const summary = summarize(times.slice(1));
  console.log(`time per picture (worker started): median ${ms(summary.median, 0)}, p95 ${ms(summary.p95, 0)}; load average ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs`);
  console.log(`plate OCR exact: ${exact}/${entries.length} (${((100 * exact) / entries.length).toFixed(1)} %; target ≥ ${TARGET * 100} %)`);
  if (exact < TARGET * entries.length) {
    console.log(`FAILED: plate OCR exact below ${TARGET * 100} %`);
    process.exitCode = 1;
  }
} finally {
  await closePlateOcr();
}
