// @ts-check
// The embedded database's own thread (pglite-thread.ts starts it; decision 052). PGlite runs
// PostgreSQL compiled to WebAssembly on the thread that calls it: on the server's main thread every
// statement stopped HTTP, WebSockets and timers until it finished. Here it runs beside them. This
// file only answers the main thread's messages, in the order they come:
//   { id, op: 'query', text, params, rowMode, rawTypes } → PGlite's query (rawTypes: the type ids
//     whose values stay text, as drizzle's identity parsers ask);
//   { id, op: 'exec', text } → PGlite's exec (several statements, no parameters);
//   { id, op: 'close' } → closes the database.
// Each answer is { id, result } or { id, error } (the error's fields, so the caller can rebuild it).
// Plain JavaScript: a worker starts without the TypeScript loader, in `npm start`'s bundle and in tests.
import { Blob } from 'node:buffer';
import fs from 'node:fs';
import process from 'node:process';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';

if (!parentPort) throw new Error('pglite-worker.mjs runs as a worker thread');
const port = parentPort;

/** @type {{ dataDir?: string; templateFile?: string; settings: Record<string, string> }} */
const { dataDir, templateFile, settings } = workerData;

const keepText = (/** @type {string} */ value) => value;
/** @type {Map<string, Record<number, (value: string) => unknown>>} */
const textParsers = new Map();
/** The per-query parsers that keep these types' values as text (cached by their ids). */
function parsersFor(/** @type {number[] | undefined} */ rawTypes) {
  if (!rawTypes || rawTypes.length === 0) return undefined;
  const key = rawTypes.join(',');
  let parsers = textParsers.get(key);
  if (!parsers) textParsers.set(key, (parsers = Object.fromEntries(rawTypes.map((type) => [type, keepText]))));
  return parsers;
}

/** An error as plain fields (PGlite's DatabaseError carries code, constraint, detail…). */
function errorFields(/** @type {unknown} */ error) {
  if (!(error instanceof Error)) return { message: String(error) };
  /** @type {Record<string, unknown>} */
  const fields = { message: error.message };
  for (const [key, value] of Object.entries(error)) {
    // The query's options hold functions (parsers), which cannot cross threads.
    if (key !== 'queryOptions' && typeof value !== 'function') fields[key] = value;
  }
  return fields;
}

/** @type {PGlite} */
let pglite;
try {
  const loadDataDir = templateFile && fs.existsSync(templateFile) ? new Blob([new Uint8Array(fs.readFileSync(templateFile))]) : undefined;
  pglite = await PGlite.create({
    dataDir,
    loadDataDir,
    startParams: [...PGlite.defaultStartParams, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])],
    extensions: { btree_gist },
    parsers: { [types.NUMERIC]: (/** @type {string} */ value) => Number(value) },
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ ready: false, error: errorFields(error) });
  process.exit(1);
}

port.on('message', async (/** @type {{ id: number; op: string; text: string; params?: unknown[]; rowMode?: 'array' | 'object'; rawTypes?: number[] }} */ message) => {
  const { id, op } = message;
  try {
    if (op === 'query') {
      const result = await pglite.query(message.text, message.params, { rowMode: message.rowMode, parsers: parsersFor(message.rawTypes) });
      port.postMessage({ id, result });
    } else if (op === 'exec') {
      port.postMessage({ id, result: await pglite.exec(message.text) });
    } else if (op === 'close') {
      await pglite.close();
      port.postMessage({ id, result: null });
      port.close();
    } else {
      throw new Error(`pglite-worker: unknown operation ${op}`);
    }
  } catch (error) {
    port.postMessage({ id, error: errorFields(error) });
  }
});
