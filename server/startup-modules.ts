// What `main.ts` needs once the database is open, imported at once as one dynamic import: these
// modules (the app's routes, plugins and contracts, the mail renderers, the workers, the demo seed:
// most of the code) load while the embedded database opens on its own thread (decision 052), so a
// later start is ready sooner. main.ts itself imports only what opening the database needs.
export { buildApp } from './app';
export { ensureAuthSecret } from './auth/tokens';
export { seedDemoDataIfEmpty } from './db/seed';
export { runMigrations } from './db/migrate';
export { withStartupLock } from './db/startup-lock';
export { startJobRunner } from './jobs/job-runner';
export { createMailer } from './mail/mailer';
export { releaseStaleClaims, startMailWorker } from './mail/outbox';
export { mailRenderers } from './mail-renderers';
export { startHeartbeat } from './modules/public/uptime';
export { createRealtimeHub } from './realtime/hub';
export { releaseStaleSmsClaims, startSmsWorker } from './sms/sms-outbox';
export { createTwilioSmsSender } from './sms/twilio-sms';
export { hasLocalFiles, migrateDocuments } from './storage/migrate-documents';
export { localStorageRoot, openStorage } from './storage/open-storage';
export { createLocalStorage } from './storage/storage';
