// `npm run cluster`: PostgreSQL (the local server), PgBouncer in transaction mode, HAProxy and three
// Baywise nodes on this machine, with the demo data; Ctrl-C stops everything (the database stays).
// CLUSTER_DATABASE_URL names the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres),
// CLUSTER_DATABASE the database (default baywise_cluster), CLUSTER_NODES the node count (3), PORT the
// balancer's port (3000), CLUSTER_POOLER=false goes straight to PostgreSQL.
import { missingParts, startCluster } from './cluster';

const adminUrl = process.env.CLUSTER_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const pooler = process.env.CLUSTER_POOLER !== 'false';
const missing = await missingParts(adminUrl, pooler);
if (missing.length > 0) {
  console.error(`Baywise's cluster needs, on this machine:\n${missing.map((m) => `  - ${m}`).join('\n')}`);
  process.exit(1);
}
const cluster = await startCluster({
  adminUrl,
  database: process.env.CLUSTER_DATABASE ?? 'baywise_cluster',
  nodes: Number(process.env.CLUSTER_NODES ?? 3),
  port: Number(process.env.PORT ?? 3000),
  pooler,
  env: { SEED_DEMO: 'true', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  log: (line) => console.log(`[cluster] ${line}`),
});
console.log(`[cluster] Baywise is ready on http://localhost:${new URL(cluster.url).port} (demo accounts: see README)`);
let isStopping = false;
const stop = async () => {
  if (isStopping) return;
  isStopping = true;
  console.log('[cluster] stopping');
  await cluster.stop();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
