import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { normalisePlate } from '../../domain/plate-match';
import type { CorpusEntry } from '../../bench/plate-corpus/generate';
import { closePlateOcr, readPlate } from './plate-ocr';

// A fixed part of the plate corpus (bench/plate-corpus; the whole of it is bench/plate-ocr-corpus.ts):
// the ZZZ 999 (read as 277999 before) in all six typefaces, and one more plate of each,
// small, tilted and noisy ones among them, and tilted ones that need the row turned level. Each
// must be read exactly (spacing aside).

const corpus = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'plate-corpus');
const entries = JSON.parse(fs.readFileSync(path.join(corpus, 'truth.json'), 'utf8')) as CorpusEntry[];
const SUBSET = [
  '001-sans-ZZZ999.jpg',
  '017-sans-bold-ZZZ999.png',
  '033-mono-ZZZ999.jpg',
  '049-mono-bold-ZZZ999.jpg',
  '065-serif-ZZZ999.jpg',
  '081-serif-bold-ZZZ999.jpg',
  '010-sans-FRM384G.jpg',
  '027-sans-bold-TQT8611.jpg',
  '040-mono-ESR5921.jpg',
  '055-mono-bold-VNQ592E.jpg',
  '070-serif-P415UFS.jpg',
  '085-serif-bold-UXB629.jpg',
  // Tilted rows Tesseract misread until the row was turned level: a last I or T dropped, an L read as 1.
  '018-sans-bold-BO51SZI.jpg',
  '028-sans-bold-GR25YFI.jpg',
  '032-sans-bold-IU282WT.jpg',
  '064-mono-bold-RMY295L.jpg',
];
// The worker starts in about a second on a quiet machine; these machines are shared.
const OCR_TIMEOUT_MS = 120_000;

afterAll(async () => {
  await closePlateOcr();
});

describe('the plate corpus, a fixed part', () => {
  it(
    'reads every plate exactly, in six typefaces, 18–60 px, tilted and noisy',
    async () => {
      const reads: Record<string, string | null> = {};
      const truth: Record<string, string> = {};
      for (const file of SUBSET) {
        const entry = entries.find((e) => e.file === file);
        expect(entry, file).toBeDefined();
        truth[file] = normalisePlate(entry!.plate);
        const result = await readPlate(fs.readFileSync(path.join(corpus, 'images', file)));
        reads[file] = result.plate === null ? null : normalisePlate(result.plate);
      }
      expect(reads).toEqual(truth);
    },
    OCR_TIMEOUT_MS,
  );
});
