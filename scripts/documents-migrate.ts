// `npm run documents:migrate -- --from local --to database`: copies every stored file a row refers to
// (booking documents, organization logos) from one store to another when a deployment switches
// (local folder ↔ PostgreSQL ↔ S3). Uses the same configuration as the server (DATABASE_URL, DATA_DIR,
// S3_*). Idempotent: what the target holds already is skipped; the source is left as it was.
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { migrateDocuments } from '../server/storage/migrate-documents';
import { openStorage, type StoreKind } from '../server/storage/open-storage';

const KINDS = ['local', 'database', 's3'] as const;
const { values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' } } });
const isKind = (value: string | undefined): value is StoreKind => (KINDS as readonly string[]).includes(value ?? '');
if (!isKind(values.from) || !isKind(values.to) || values.from === values.to) {
  console.error(`Usage: npm run documents:migrate -- --from <${KINDS.join('|')}> --to <${KINDS.join('|')}> (two different stores)`);
  process.exit(2);
}
const config = loadConfig();
if (!config.databaseUrl) {
  console.error('documents:migrate works on a PostgreSQL server: set DATABASE_URL (the embedded database keeps its files on local disk).');
  process.exit(2);
}
const database = await openDatabase({ databaseUrl: config.databaseDirectUrl ?? config.databaseUrl });
try {
  const from = await openStorage(values.from, config, database);
  const to = await openStorage(values.to, config, database);
  const report = await migrateDocuments(database, from, to);
  console.log(`copied ${report.copied}, already there ${report.present}, missing in the source ${report.missing.length}`);
  for (const m of report.missing) console.log(`  missing: ${m.bucket}/${m.key}`);
  process.exitCode = report.missing.length > 0 ? 1 : 0;
} finally {
  await database.close();
}
