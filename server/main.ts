import path from 'node:path';
import { loadConfig, type Config } from './config';
import { createLogger } from './logger';
import { drainUntilQuiet } from './drain';
import { systemClock, type AppContext } from './context';
import { openDatabase, type Database } from './db/client';
import { acquireDataDirLock, DataDirLockedError, type DataDirLock } from './db/data-dir-lock';
import type { JobRunner } from './jobs/job-runner';
import type { MailWorker } from './mail/outbox';
import type { RealtimeHub } from './realtime/hub';
import type { SmsWorker } from './sms/sms-outbox';
import { ensureWebBuild, webDist } from './web-build';

const bootStarted = Date.now();
let config: Config;
try {
  config = loadConfig();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const log = await createLogger(config.logLevel, { pretty: process.stdout.isTTY === true });

let lock: DataDirLock | undefined;
let database: Database | undefined;
let mailWorker: MailWorker | undefined;
let smsWorker: SmsWorker | undefined;
let jobRunner: JobRunner | undefined;
let realtime: RealtimeHub | undefined;
try {
  if (!config.databaseUrl) lock = acquireDataDirLock(config.dataDir);
} catch (error) {
  if (error instanceof DataDirLockedError) {
    console.error(`Baywise cannot start: ${error.message}`);
    process.exit(1);
  }
  throw error;
}

/**
 * SIGTERM/SIGINT: readiness fails at once (a balancer stops sending new requests), the node keeps
 * serving for SHUTDOWN_DRAIN_MS while the balancer notices, then stops accepting, lets in-flight
 * requests finish, stops the workers after the item each is on, and exits — within
 * SHUTDOWN_TIMEOUT_MS whatever happens (exit code 1 when it had to cut something short).
 */
async function shutdown(signal: string, ctx?: AppContext, app?: Awaited<ReturnType<typeof import('./app').buildApp>>) {
  log.info({ signal, node: config.nodeId }, 'shutting down: readiness fails now');
  if (ctx?.lifecycle) ctx.lifecycle.isDraining = true;
  const deadline = setTimeout(() => {
    log.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown took too long; exiting anyway');
    lock?.release();
    process.exit(1);
  }, config.shutdownTimeoutMs);
  deadline.unref();
  try {
    if (app && config.shutdownDrainMs > 0) {
      const drained = await drainUntilQuiet({
        minMs: config.shutdownDrainMs,
        quietMs: Math.min(1000, config.shutdownDrainMs),
        // Half the shutdown's limit: in-flight requests and the workers get the rest.
        maxMs: Math.floor(config.shutdownTimeoutMs / 2),
        lastRequestAt: () => ctx?.lifecycle?.lastRequestAt,
      });
      if (!drained.quiet) log.warn({ waitedMs: drained.waitedMs }, 'requests still coming at the end of the drain; stopping anyway');
    }
    // Sockets get 1012 in app.close(); in-flight requests finish; the hub's LISTEN connection goes before the pool.
    await app?.close();
    await Promise.all([jobRunner?.stop(), mailWorker?.stop(), smsWorker?.stop()]);
    await realtime?.close();
    await database?.close();
  } finally {
    lock?.release();
  }
  log.info('stopped');
  process.exit(0);
}

try {
  const webBuild = process.env.SKIP_WEB_BUILD === 'true' ? Promise.resolve() : ensureWebBuild((m) => log.info(m));
  const opening = openDatabase({
    databaseUrl: config.databaseUrl,
    databaseDirectUrl: config.databaseDirectUrl,
    poolMode: config.databasePoolMode,
    poolSize: config.databasePoolSize,
    applicationName: `baywise-${config.nodeId}`,
    dataDir: config.dataDir,
    thread: true, // the embedded database off the event loop (decision 052)
    // Every statement would fail from now on: exit, so a supervisor (or the operator) starts us again.
    onEmbeddedLost: (error) => {
      log.fatal({ reason: error.message }, 'the embedded database stopped; Baywise exits (restart it to recover)');
      lock?.release();
      process.exit(1);
    },
    // Only the reason: the error carries the whole client object.
    onIdleError: (error) =>
      log.warn({ code: (error as { code?: string }).code, reason: error.message }, 'idle database connection lost; the pool opens a new one'),
  });
  // The rest of the code loads while the embedded database opens on its own thread
  // (startup-modules.ts).
  const loading = import('./startup-modules');
  loading.catch(() => undefined); // awaited below; a failed open must not leave it unhandled
  database = await opening;
  const {
    buildApp,
    createLocalStorage,
    createMailer,
    createRealtimeHub,
    createTwilioSmsSender,
    ensureAuthSecret,
    hasLocalFiles,
    localStorageRoot,
    mailRenderers,
    migrateDocuments,
    openStorage,
    releaseStaleClaims,
    releaseStaleSmsClaims,
    runMigrations,
    seedDemoDataIfEmpty,
    startHeartbeat,
    startJobRunner,
    startMailWorker,
    startSmsWorker,
    withStartupLock,
  } = await loading;
  await runMigrations(database);
  const ctx: AppContext = {
    config,
    database,
    clock: systemClock,
    log,
    startedAt: new Date(),
    authSecret: await ensureAuthSecret(database, config.authSecret),
    storage: await openStorage(config.documentStore, config, database),
    mailer: createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'outbox'),
      log,
    }),
  };
  ctx.lifecycle = { isDraining: false };
  // Files a node stored on its own disk before documents were shared: copied into the shared store.
  if (config.documentStore !== 'local' && hasLocalFiles(localStorageRoot(config))) {
    const from = createLocalStorage(localStorageRoot(config));
    const report = await withStartupLock(database, () => migrateDocuments(database!, from, ctx.storage));
    log.info({ to: config.documentStore, ...report, missing: report.missing.length }, 'local documents copied to the shared store');
  }
  if (config.seedDemo) {
    const seeded = await seedDemoDataIfEmpty(ctx);
    if (seeded) log.info('demo data seeded (see README for the demo accounts)');
  }
  // Mail queued before a crash is delivered now; on the embedded database this process is the
  // only one (data-directory lock), so rows it claimed before dying are free again at once.
  if (database.kind === 'pglite') await releaseStaleClaims(ctx);
  mailWorker = startMailWorker(ctx, mailRenderers);
  startHeartbeat(ctx);
  ctx.mailWorker = mailWorker;
  // Text messages only when a provider is configured (SMS_URL …): nothing is queued otherwise.
  if (config.sms) {
    if (database.kind === 'pglite') await releaseStaleSmsClaims(ctx);
    smsWorker = startSmsWorker(ctx, createTwilioSmsSender(config.sms));
    ctx.smsWorker = smsWorker;
  }
  // Not awaited: if LISTEN cannot start yet the hub keeps retrying, and the API serves meanwhile.
  realtime = createRealtimeHub({ database, log });
  ctx.realtime = realtime;
  await webBuild;
  const app = await buildApp(ctx, { webDist, logger: log });
  process.once('SIGINT', () => void shutdown('SIGINT', ctx, app));
  process.once('SIGTERM', () => void shutdown('SIGTERM', ctx, app));
  await app.listen({ port: config.port, host: config.host });
  log.info(
    { url: `http://localhost:${config.port}`, database: database.kind, node: config.nodeId, bootMs: Date.now() - bootStarted, sinceProcessStartMs: Math.round(process.uptime() * 1000) },
    `Baywise is ready on http://localhost:${config.port}`,
  );
  // The lifecycle sweeps (no-shows, overstays) every minute; started once the app answers.
  jobRunner = await startJobRunner(ctx);
} catch (error) {
  log.error({ err: error }, 'Baywise failed to start');
  await realtime?.close().catch(() => undefined);
  await database?.close().catch(() => undefined);
  lock?.release();
  process.exit(1);
}
