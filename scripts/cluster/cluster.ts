import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ensureWebBuild } from '../../server/web-build';
import { bundleEntry, ensureServerBundle, SERVER_NODE_FLAGS } from '../server-bundle.mjs';

// A Baywise cluster on one machine (issue 23), from the parts a deployment uses: the local
// PostgreSQL server, PgBouncer in transaction pooling mode, HAProxy, and N nodes, with the
// configuration files of deploy/. Used by `npm run cluster` and by the cluster test.

export type ClusterOptions = {
  /** The PostgreSQL server (its admin connection): a database is created on it for the cluster. */
  adminUrl?: string;
  /** Name of the database to use (created when missing); a fresh random one by default. */
  database?: string;
  nodes?: number;
  /** The balancer's port (0: any free one). */
  port?: number;
  /** Extra environment for every node. */
  env?: Record<string, string>;
  /** Through PgBouncer (default) or straight to PostgreSQL. */
  pooler?: boolean;
  log?: (line: string) => void;
};

export type ClusterNode = {
  id: string;
  port: number;
  url: string;
  /** Its DATA_DIR (mail outbox files; no documents when they are shared). */
  dataDir: string;
  child: ChildProcess | null;
  /** What the node printed to stderr (its warnings and errors). */
  stderr: string;
};

export type Cluster = {
  /** The balancer: what clients use. */
  url: string;
  nodes: ClusterNode[];
  /** Direct PostgreSQL connection string of the cluster's database. */
  databaseUrl: string;
  /** The pooler's connection string (what nodes use), or the direct one without a pooler. */
  poolerUrl: string;
  /** Starts node i (again); resolves when it answers /api/health/ready. */
  startNode: (index: number) => Promise<void>;
  /** SIGTERM (graceful) or SIGKILL; resolves when the process has exited, with its exit code. */
  stopNode: (index: number, signal?: 'SIGTERM' | 'SIGKILL') => Promise<number | null>;
  /** Everything down; the database dropped when it was created for this cluster. */
  stop: () => Promise<void>;
};

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** What the cluster needs on this machine; a sentence per missing part (empty when all is there). */
export async function missingParts(adminUrl = DEFAULT_ADMIN_URL, pooler = true): Promise<string[]> {
  const missing: string[] = [];
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (error) {
    missing.push(`a PostgreSQL server at ${redact(adminUrl)} (${(error as Error).message}); set CLUSTER_DATABASE_URL to another one`);
  } finally {
    await client.end().catch(() => undefined);
  }
  if (!binary('haproxy')) missing.push('haproxy (Debian: apt-get install haproxy)');
  if (pooler && !binary('pgbouncer')) missing.push('pgbouncer (Debian: apt-get install pgbouncer)');
  return missing;
}

function binary(name: string): string | null {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin', ...(process.env.PATH ?? '').split(':')]) {
    const full = path.join(dir, name);
    if (fs.existsSync(full)) return full;
  }
  return null;
}

const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Fills `${NAME}` placeholders of a deploy/ template. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\$\{([A-Z_]+)\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`No value for \${${name}}`);
    return values[name]!;
  });
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, isDead: () => string | null = () => null): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const dead = isDead();
    if (dead) throw new Error(`${what}: ${dead}`);
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: not ready within ${timeoutMs / 1000} s`);
}

const answers = (url: string) => fetch(url).then((r) => r.ok);

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const log = options.log ?? (() => undefined);
  const adminUrl = options.adminUrl ?? DEFAULT_ADMIN_URL;
  const usePooler = options.pooler ?? true;
  const missing = await missingParts(adminUrl, usePooler);
  if (missing.length > 0) throw new Error(`The cluster needs:\n${missing.map((m) => `  - ${m}`).join('\n')}`);

  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-cluster-'));
  fs.chmodSync(workDir, 0o755); // PgBouncer runs as the postgres user (it refuses root)
  const children: ChildProcess[] = [];

  // The database.
  const admin = new URL(adminUrl);
  const dbName = options.database ?? `baywise_cluster_${randomBytes(4).toString('hex')}`;
  const isCreated = !options.database;
  const adminClient = new pg.Client({ connectionString: adminUrl });
  await adminClient.connect();
  try {
    const exists = await adminClient.query('select 1 from pg_database where datname = $1', [dbName]);
    if (exists.rowCount === 0) await adminClient.query(`create database "${dbName.replaceAll('"', '""')}"`);
  } finally {
    await adminClient.end();
  }
  const direct = new URL(adminUrl);
  direct.pathname = `/${dbName}`;
  const databaseUrl = direct.toString();

  const stopAll = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
  };

  try {
    // PgBouncer.
    let poolerUrl = databaseUrl;
    if (usePooler) {
      const port = await freePort();
      const userlist = path.join(workDir, 'userlist.txt');
      const user = decodeURIComponent(admin.username || 'postgres');
      fs.writeFileSync(userlist, `"${user}" ""\n`);
      const ini = path.join(workDir, 'pgbouncer.ini');
      fs.writeFileSync(
        ini,
        fill(fs.readFileSync(path.join(import.meta.dirname, '../../deploy/pgbouncer.ini'), 'utf8'), {
          PGBOUNCER_DATABASE: dbName,
          PG_HOST: admin.hostname || '127.0.0.1',
          PG_PORT: admin.port || '5432',
          PG_DATABASE: dbName,
          PG_USER: user,
          PGBOUNCER_PORT: String(port),
          PGBOUNCER_USERLIST: userlist,
        }),
      );
      for (const file of [userlist, ini]) fs.chmodSync(file, 0o644);
      const asRoot = process.getuid?.() === 0;
      const child = spawn(binary('pgbouncer')!, [...(asRoot ? ['-u', 'postgres'] : []), ini], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      children.push(child);
      const pooled = new URL(databaseUrl);
      pooled.host = `127.0.0.1:${port}`;
      poolerUrl = pooled.toString();
      await waitFor(
        'PgBouncer',
        async () => {
          const c = new pg.Client({ connectionString: poolerUrl, connectionTimeoutMillis: 1000 });
          try {
            await c.connect();
            await c.query('select 1');
            return true;
          } finally {
            await c.end().catch(() => undefined);
          }
        },
        15_000,
        () => (child.exitCode !== null ? `exited (${child.exitCode}): ${stderr}` : null),
      );
      log(`PgBouncer (transaction pooling) on 127.0.0.1:${port}`);
    }

    // The nodes' shared settings, and their ports.
    const count = options.nodes ?? 3;
    const shared: Record<string, string> = {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATABASE_URL: poolerUrl,
      DATABASE_DIRECT_URL: databaseUrl,
      DATABASE_POOL_MODE: usePooler ? 'transaction' : 'session',
      AUTH_SECRET: randomBytes(32).toString('hex'),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      TRUST_PROXY: '127.0.0.1',
      SKIP_WEB_BUILD: 'true',
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_MS: '3000',
      ...options.env,
    };
    const frontPort = options.port || (await freePort());
    shared.PUBLIC_URL ??= `http://localhost:${frontPort}`;
    const nodes: ClusterNode[] = [];
    for (let i = 0; i < count; i++) {
      const port = await freePort();
      const id = `node-${String.fromCharCode(97 + i)}`;
      nodes.push({ id, port, url: `http://127.0.0.1:${port}`, dataDir: path.join(workDir, id), child: null, stderr: '' });
    }

    // One build for all: nodes started together must not race to write the bundle or the web app.
    await ensureServerBundle();
    await ensureWebBuild(log);

    const startNode = async (index: number) => {
      const node = nodes[index]!;
      if (node.child && node.child.exitCode === null && node.child.signalCode === null) throw new Error(`${node.id} is running`);
      const dataDir = node.dataDir;
      fs.mkdirSync(dataDir, { recursive: true });
      const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--enable-source-maps', bundleEntry], {
        env: { ...process.env, ...shared, PORT: String(node.port), NODE_ID: node.id, DATA_DIR: dataDir },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      node.child = child;
      node.stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (node.stderr += chunk.toString()));
      children.push(child);
      await waitFor(
        node.id,
        () => answers(`${node.url}/api/health/ready`),
        120_000,
        () => (child.exitCode !== null ? `exited (${child.exitCode}): ${node.stderr.slice(-2000)}` : null),
      );
    };

    const stopNode = async (index: number, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
      const child = nodes[index]!.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal);
      return exited;
    };

    // Every node at once: they serialise migrations, seeding and the job runner's set-up themselves.
    await Promise.all(nodes.map((_, i) => startNode(i)));
    log(`${count} nodes: ${nodes.map((n) => `${n.id} on :${n.port}`).join(', ')}`);

    // HAProxy.
    const cfg = path.join(workDir, 'haproxy.cfg');
    fs.writeFileSync(
      cfg,
      fill(fs.readFileSync(path.join(import.meta.dirname, '../../deploy/haproxy.cfg'), 'utf8'), {
        HAPROXY_BIND: `${options.port === undefined ? '127.0.0.1' : '0.0.0.0'}:${frontPort}`,
        HAPROXY_SERVERS: nodes.map((n) => `    server ${n.id} 127.0.0.1:${n.port} check`).join('\n'),
      }),
    );
    const haproxy = spawn(binary('haproxy')!, ['-db', '-f', cfg], { stdio: ['ignore', 'ignore', 'pipe'] });
    let haproxyErr = '';
    haproxy.stderr!.on('data', (chunk: Buffer) => (haproxyErr += chunk.toString()));
    children.push(haproxy);
    const url = `http://127.0.0.1:${frontPort}`;
    await waitFor('HAProxy', () => answers(`${url}/api/health/ready`), 15_000, () =>
      haproxy.exitCode !== null ? `exited (${haproxy.exitCode}): ${haproxyErr}` : null,
    );
    log(`HAProxy on ${url}`);

    return {
      url,
      nodes,
      databaseUrl,
      poolerUrl,
      startNode,
      stopNode,
      stop: async () => {
        await Promise.all(nodes.map((_, i) => stopNode(i, 'SIGTERM')));
        await stopAll();
        if (isCreated) {
          const c = new pg.Client({ connectionString: adminUrl });
          await c.connect();
          await c.query(`drop database if exists "${dbName.replaceAll('"', '""')}" with (force)`).catch(() => undefined);
          await c.end();
        }
        fs.rmSync(workDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
