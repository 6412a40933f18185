// Plate OCR on the server (server/ocr/plate-ocr.ts): the time to read one plate photo, end to end
// (decode with sharp, find the rows of characters, Tesseract on each), once the worker is started.
// Pictures: the committed photo-like fixtures (1024 × 768 and 960 × 720 JPEG, a truck with other
// lettering, a trailer at dusk) and a plate drawn as a tight crop.
// Prints `ocr: N ms median` for the truck photo (the key figure), the worker's start, and the
// time spent finding the rows (pure JavaScript on the main thread) on its own.
// Run alone: npx tsx bench/ocr.ts
// Knobs: BENCH_OCR_RUNS (timed reads per picture, default 15).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { findPlateRegions, MAX_WORKING_SIDE } from '../domain/plate-image';
import { canonicalPlate } from '../domain/plate-match';
import { PHOTO_PLATES } from '../server/ocr/fixtures/make-photos';
import { renderPlate } from '../server/ocr/fixtures/plate-image';
import { closePlateOcr, readPlate } from '../server/ocr/plate-ocr';
import { envInt, ms, summarize } from './lib/stats';

const runs = envInt('BENCH_OCR_RUNS', 15);
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'server', 'ocr', 'fixtures');

const pictures: Array<{ name: string; plate: string; image: Buffer }> = [
  ...Object.entries(PHOTO_PLATES).map(([file, plate]) => ({ name: file, plate, image: fs.readFileSync(path.join(fixtures, file)) })),
  { name: 'drawn crop (XK21 9QW, 60 px characters)', plate: 'XK21 9QW', image: await renderPlate('XK21 9QW') },
];

try {
  const startedAt = performance.now();
  const first = await readPlate(pictures[0]!.image);
  const firstMs = performance.now() - startedAt;
  console.log(`first read, including the worker's start: ${ms(firstMs, 0)} (read ${first.plate ?? `nothing: ${first.reason}`})`);

  const medians = new Map<string, number>();
  for (const picture of pictures) {
    const samples: number[] = [];
    let correct = 0;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const result = await readPlate(picture.image);
      samples.push(performance.now() - started);
      if (result.plate && canonicalPlate(result.plate) === canonicalPlate(picture.plate)) correct++;
    }
    const summary = summarize(samples);
    medians.set(picture.name, summary.median);

    const { data, info } = await sharp(picture.image)
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize({ width: MAX_WORKING_SIDE, height: MAX_WORKING_SIDE, fit: 'inside', withoutEnlargement: true })
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const findSamples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      findPlateRegions({ width: info.width, height: info.height, data });
      findSamples.push(performance.now() - started);
    }
    console.log(
      `${picture.name}: median ${ms(summary.median, 0)}, p95 ${ms(summary.p95, 0)} (n=${summary.n}), ` +
        `${correct}/${runs} read as ${picture.plate}; finding the rows alone: median ${ms(summarize(findSamples).median, 1)}`,
    );
  }
  console.log(`load average ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs (the machine is shared)`);
  console.log(`ocr: ${medians.get(pictures[0]!.name)!.toFixed(0)} ms median (one plate photo, ${pictures[0]!.name}, worker already started)`);
} finally {
  await closePlateOcr();
}
