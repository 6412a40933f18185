import type { Database } from '../../db/client';

// Running the hot path's one statement cheaply: prepared once per connection where the connection
// is ours to keep, unnamed behind a transaction pooler (PgBouncer, poolMode 'transaction').

/** Per PGlite instance, the statements prepared in its (single) session. */
const preparedOnPglite = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * Runs a statement prepared once per connection, so PostgreSQL parses and plans it once: a named
 * statement of the pg protocol on a server; on PGlite (one session, no statement names in its
 * protocol) PREPARE once, then EXECUTE. Planning this statement in WebAssembly costs more than
 * running it.
 */
export async function run<T>(database: Database, name: string, text: string, values: unknown[]): Promise<T[]> {
  // Behind a transaction pooler a named statement would be prepared on one server connection and
  // executed on another: unnamed there (parsed and planned each time).
  if (database.pool) return (await database.pool.query(database.poolMode === 'transaction' ? { text, values } : { name, text, values })).rows as T[];
  if (!database.pglite) return database.query<T>(text, values);
  let prepared = preparedOnPglite.get(database.pglite);
  if (!prepared) preparedOnPglite.set(database.pglite, (prepared = new Map()));
  let ready = prepared.get(name);
  if (!ready) {
    const pglite = database.pglite;
    ready = (async () => {
      // sqlLiteral relies on it; nothing in Baywise turns it off.
      const [setting] = (await pglite.query<{ on: boolean }>(`select current_setting('standard_conforming_strings') = 'on' as on`)).rows;
      if (!setting?.on) throw new Error('standard_conforming_strings must be on');
      await pglite.exec(`prepare ${name} as ${text}`);
    })();
    prepared.set(name, ready);
    ready.catch(() => prepared.delete(name));
  }
  await ready;
  // EXECUTE is a utility statement: it takes no protocol parameters, so the values go in as
  // literals, each coerced by PostgreSQL to the prepared parameter's type.
  return database.query<T>(`execute ${name}(${values.map(sqlLiteral).join(', ')})`);
}

/**
 * A value as an SQL literal of unknown type: null, a number, a string, or an array of strings in
 * PostgreSQL's array syntax. Quotes are doubled (standard_conforming_strings is on, so backslashes
 * are plain characters); array elements are double-quoted with `"` and `\` escaped.
 */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('sqlLiteral: not a finite number');
    return `'${value}'`;
  }
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  if (Array.isArray(value)) {
    const elements = value.map((element) => {
      if (typeof element !== 'string') throw new Error('sqlLiteral: arrays of strings only');
      return `"${element.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
    });
    return sqlLiteral(`{${elements.join(',')}}`);
  }
  throw new Error(`sqlLiteral: unsupported value of type ${typeof value}`);
}
