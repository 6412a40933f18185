import type { PlateOcrResult } from '../../ocr/plate-ocr';

// server/ocr/plate-ocr.ts loads sharp and tesseract.js (heavy): it is imported on the first
// picture only, never at start-up, and its worker is stopped when the app closes — if it was loaded.

type PlateOcrModule = typeof import('../../ocr/plate-ocr');
let loaded: Promise<PlateOcrModule> | undefined;

/** Reads the plate in a picture, loading the OCR on first use. */
export async function readPlateLazily(image: Buffer): Promise<PlateOcrResult> {
  loaded ??= import('../../ocr/plate-ocr');
  return (await loaded).readPlate(image);
}

/** For an onClose hook: stops the OCR worker if a picture was ever read (nothing is loaded otherwise). */
export async function closePlateOcrIfLoaded(): Promise<void> {
  if (!loaded) return;
  await (await loaded).closePlateOcr();
}
