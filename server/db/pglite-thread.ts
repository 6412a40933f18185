import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';

// The embedded database on a thread of its own (decision 052). PGlite is PostgreSQL compiled to
// WebAssembly and runs on the thread that calls it, so in the server's process every statement
// held up HTTP, WebSockets and timers until it finished. PGliteThread keeps PGlite in a worker
// (pglite-worker.mjs) and offers the part of PGlite's interface Baywise uses: query, exec,
// transaction and close, with PGlite's results and errors. Statements are posted as they come and
// run in that order; while a transaction is open, statements from outside it wait for its end, as
// PGlite's own transaction() makes them.

/** What Baywise calls on the embedded database: PGlite itself, or PGliteThread. */
export type EmbeddedSession = {
  query<T = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<Array<Results>>;
  close(): Promise<void>;
};

/** The handle a transaction's callback gets: drizzle's PGlite session only calls query on it. */
export type ThreadTransaction = Pick<EmbeddedSession, 'query'>;

export type PGliteThreadOptions = {
  /** The data directory; in memory without one. */
  dataDir?: string;
  /** A dump to restore into a new data directory (pglite-template.ts), read by the worker. */
  templateFile?: string;
  /** PostgreSQL settings passed at start (`-c name=value`). */
  settings?: Record<string, string>;
  /**
   * Told once if the thread ends by itself (a crash, out of memory), not through close(): every
   * statement fails from then on, so the server exits and its supervisor starts it again.
   */
  onLost?: (error: Error) => void;
  /** The worker's script (tests start one that dies); pglite-worker.mjs by default. */
  workerUrl?: URL;
};

type Reply = { id: number; result?: unknown; error?: Record<string, unknown> };
type Request = { op: 'query'; text: string; params?: unknown[]; rowMode?: 'array' | 'object'; rawTypes?: number[] } | { op: 'exec' | 'close'; text?: string };

/** A PostgreSQL error rebuilt from the worker's fields (code, constraint, detail… as PGlite's). */
function rebuildError(fields: Record<string, unknown>): Error {
  const { message, ...rest } = fields;
  return Object.assign(new Error(String(message)), rest);
}

/** textTypes's answer per parsers object (drizzle keeps one per prepared query). */
const textTypesOf = new WeakMap<object, number[]>();

/**
 * The type ids whose values drizzle asks to keep as text: its per-query parsers are identities
 * (dates, intervals, numeric arrays), which cannot cross threads as functions. Anything else is
 * refused rather than silently ignored.
 */
function textTypes(parsers: QueryOptions['parsers']): number[] | undefined {
  if (!parsers) return undefined;
  let types = textTypesOf.get(parsers);
  if (!types) {
    types = Object.entries(parsers).map(([type, parse]) => {
      if (parse('2026-01-01', Number(type)) !== '2026-01-01') throw new Error(`PGliteThread: only identity parsers are supported (type ${type})`);
      return Number(type);
    });
    textTypesOf.set(parsers, types);
  }
  return types;
}

export class PGliteThread implements EmbeddedSession {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  #nextId = 1;
  /** Settles when the open transaction ends; null when none is open. */
  #transaction: Promise<void> | null = null;
  /** Why the worker stopped (every later call fails with it). */
  #stopped: Error | null = null;
  /** Set by close(): the thread's end is then expected. */
  #isClosing = false;

  private constructor(worker: Worker, onLost?: (error: Error) => void) {
    this.#worker = worker;
    worker.on('message', (reply: Reply) => {
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#pending.delete(reply.id);
      if (reply.error) pending.reject(rebuildError(reply.error));
      else pending.resolve(reply.result);
    });
    const stop = (error: Error) => {
      const isFirst = this.#stopped === null;
      this.#stopped ??= error;
      for (const { reject } of this.#pending.values()) reject(this.#stopped);
      this.#pending.clear();
      if (isFirst && !this.#isClosing) onLost?.(this.#stopped);
    };
    worker.on('error', stop);
    worker.on('exit', (code) => stop(new Error(`the embedded database's thread exited (code ${code})`)));
  }

  /** Starts the worker and waits until the database is open (or says why it could not open). */
  static async open(options: PGliteThreadOptions = {}): Promise<PGliteThread> {
    const worker = new Worker(options.workerUrl ?? new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: { dataDir: options.dataDir, templateFile: options.templateFile, settings: options.settings ?? {} },
    });
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      worker.once('error', onError);
      worker.once('message', (message: { ready: boolean; error?: Record<string, unknown> }) => {
        worker.off('error', onError);
        if (message.ready) resolve();
        else reject(rebuildError(message.error ?? { message: 'the embedded database did not open' }));
      });
    });
    return new PGliteThread(worker, options.onLost);
  }

  #send<T>(request: Request): Promise<T> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ id, ...request });
    });
  }

  #query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#send<Results<T>>({ op: 'query', text, params, rowMode: options?.rowMode, rawTypes: textTypes(options?.parsers) });
  }

  /** Waits until no transaction is open (statements from outside one do not run inside it). */
  async #outsideTransaction(): Promise<void> {
    while (this.#transaction) await this.#transaction;
  }

  async query<T = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    if (this.#transaction) await this.#outsideTransaction();
    return this.#query<T>(text, params, options);
  }

  async exec(text: string): Promise<Array<Results>> {
    if (this.#transaction) await this.#outsideTransaction();
    return this.#send<Array<Results>>({ op: 'exec', text });
  }

  /**
   * Runs `callback` in a transaction: committed when it returns, rolled back when it throws.
   * Other statements wait for it to end; the handle refuses statements once it has ended.
   */
  async transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    await this.#outsideTransaction();
    let end!: () => void;
    this.#transaction = new Promise<void>((resolve) => (end = resolve));
    let closed = false;
    const tx: ThreadTransaction = {
      query: async <R>(text: string, params?: unknown[], options?: QueryOptions) => {
        if (closed) throw new Error('Transaction is closed');
        return this.#query<R>(text, params, options);
      },
    };
    try {
      await this.#send({ op: 'exec', text: 'BEGIN' });
      try {
        const result = await callback(tx);
        await this.#send({ op: 'exec', text: 'COMMIT' });
        return result;
      } catch (error) {
        await this.#send({ op: 'exec', text: 'ROLLBACK' });
        throw error;
      } finally {
        closed = true;
      }
    } finally {
      this.#transaction = null;
      end();
    }
  }

  /** Closes the database, then ends the thread. */
  async close(): Promise<void> {
    if (this.#stopped) return;
    await this.#outsideTransaction();
    this.#isClosing = true;
    await this.#send({ op: 'close' });
    await this.#worker.terminate();
  }
}
