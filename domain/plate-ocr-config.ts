// Plate OCR settings shared by the browser (web/lib/plate-ocr.ts) and the server
// (server/ocr/plate-ocr.ts), and the paths the browser loads Tesseract from: our own server
// (server/ocr/ocr-assets.ts serves them from node_modules), never a CDN, nothing downloaded.
//
// The versions are part of the paths, so the files can be cached for a year: an upgrade changes
// the paths. server/ocr/ocr-assets.test.ts fails when these no longer name the installed packages.

export const OCR_TESSERACT_VERSION = '7.0.0';
export const OCR_CORE_VERSION = '7.0.0';
/** The trained data: @tesseract.js-data/eng's LSTM-only integer model (small and fast). */
export const OCR_LANG_DATA = '4.0.0_best_int';
export const OCR_LANGUAGE = 'eng';

export const OCR_ASSET_BASE = `/ocr/${OCR_TESSERACT_VERSION}-${OCR_CORE_VERSION}`;
/** tesseract.js's worker script (the browser spawns it from this same-origin URL). */
export const OCR_WORKER_PATH = `${OCR_ASSET_BASE}/worker.min.js`;
/** Folder of the core; the worker picks the file its browser supports (SIMD or not). */
export const OCR_CORE_PATH = `${OCR_ASSET_BASE}/core`;
/** Folder of `eng.traineddata.gz`. */
export const OCR_LANG_PATH = `${OCR_ASSET_BASE}/lang/${OCR_LANG_DATA}`;
/** The LSTM-only cores (the WebAssembly is inside each .wasm.js); the worker loads one of them. */
export const OCR_CORE_FILES = [
  'tesseract-core-lstm.wasm.js',
  'tesseract-core-simd-lstm.wasm.js',
  'tesseract-core-relaxedsimd-lstm.wasm.js',
] as const;

/** Letters and digits only: plates have nothing else, and fewer choices mean fewer misreads. */
export const OCR_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * Tesseract parameters for one prepared plate row (domain/plate-image.ts): a single line of
 * text (page segmentation mode 7), our characters only, and a resolution so Tesseract does not
 * guess one (and warn) from an image without any.
 */
export const OCR_PARAMETERS = {
  tessedit_pageseg_mode: '7',
  tessedit_char_whitelist: OCR_CHARACTERS,
  user_defined_dpi: '300',
} as const;

/** What a plate read from a picture gives: the likeliest plate, every plausible read, or why none. */
export type PlateOcrResult = {
  /** The likeliest plate (normalised), or null. */
  plate: string | null;
  /** Every plausible read, likeliest first (plate is the first); match each against the site. */
  candidates: string[];
  /**
   * Why there is no plate: 'not_an_image' (not a picture we can decode), 'unreadable' (a picture,
   * but no plate could be read in it), 'busy' (too many pictures waiting; try again shortly).
   */
  reason?: 'unreadable' | 'not_an_image' | 'busy';
};
