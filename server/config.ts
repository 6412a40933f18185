import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  /**
   * A direct connection to the same database (not through a pooler): the realtime LISTEN and the
   * start-up lock use it. Needed when DATABASE_URL goes through PgBouncer in transaction mode.
   */
  DATABASE_DIRECT_URL: z.string().url().optional(),
  /** `transaction`: DATABASE_URL is a transaction-pooling PgBouncer — no session state, no named prepared statements. */
  DATABASE_POOL_MODE: z.enum(['session', 'transaction']).default('session'),
  /** Connections this node keeps to the database (PostgreSQL server only). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2, 'DATABASE_POOL_SIZE must be at least 2').max(500).default(10),
  /** This node's name in the cluster: the database connections' application_name, logs. Default: host name and process id. */
  NODE_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,40}$/, 'NODE_ID may hold letters, digits, dots, dashes and underscores (at most 40)')
    .optional(),
  /** Valkey/Redis for the per-IP limits (shared by every node); without it the limits are kept in PostgreSQL (or in memory on PGlite). */
  REDIS_URL: z.string().url().optional(),
  /** Where uploaded documents live: `database` (PostgreSQL server default), `local` (DATA_DIR/storage, the PGlite default) or `s3` (default when S3 is configured). */
  DOCUMENT_STORE: z.enum(['database', 'local', 's3']).optional(),
  /** How long a SIGTERM waits for in-flight requests and workers before the process exits anyway. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** After SIGTERM, how long the node keeps serving with readiness failing, so the balancer takes it out before it stops listening. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(3_000),
  SEED_DEMO: booleanString.default(true),
  PUBLIC_URL: z.string().url().optional(),
  AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must be at least 32 characters').optional(),
  /** Key for secrets stored encrypted (webhook signing secrets, TSR credentials); else generated and kept in the database. */
  DATA_ENCRYPTION_KEY: z.string().min(32, 'DATA_ENCRYPTION_KEY must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(3600),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).default(30),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Baywise <no-reply@baywise.test>'),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Stripe: the API key (sk_…) and the webhook endpoint's signing secret (whsec_…); without the secret the payment webhook answers 503. */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Text messages (off unless all four are set): an HTTP API in Twilio's shape (server/sms/twilio-sms.ts). */
  SMS_URL: z.string().url().optional(),
  SMS_ACCOUNT_SID: z.string().min(1).optional(),
  SMS_AUTH_TOKEN: z.string().min(1).optional(),
  SMS_FROM: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_DISABLED: booleanString.default(false),
  /** Comma-separated addresses never rate-limited (e.g. an internal health checker). */
  RATE_LIMIT_ALLOW_LIST: z.string().default(''),
  /** Comma-separated proxy addresses or CIDR ranges whose X-Forwarded-For is believed (default: none). */
  TRUST_PROXY: z
    .string()
    .default('')
    .refine((value) => splitList(value).every(isAddressOrRange), 'TRUST_PROXY must list IP addresses or CIDR ranges, e.g. 10.0.0.1,10.1.0.0/16'),
});

function splitList(value: string): string[] {
  return value.split(',').map((item) => item.trim()).filter(Boolean);
}

/** An IPv4/IPv6 address, or one with a /prefix of the right size. */
function isAddressOrRange(value: string): boolean {
  const [address, prefix, ...rest] = value.split('/');
  const version = isIP(address ?? '');
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits >= 0 && bits <= (version === 4 ? 32 : 128);
}

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** A direct (unpooled) connection for LISTEN and the start-up lock; DATABASE_URL when not set. */
  databaseDirectUrl?: string;
  databasePoolMode: 'session' | 'transaction';
  databasePoolSize: number;
  nodeId: string;
  redisUrl?: string;
  documentStore: 'database' | 'local' | 's3';
  shutdownTimeoutMs: number;
  shutdownDrainMs: number;
  seedDemo: boolean;
  publicUrl: string;
  authSecret?: string;
  dataEncryptionKey?: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  smtpUrl?: string;
  mailFrom: string;
  s3?: { endpoint: string; region: string; bucket: string; accessKeyId: string; secretAccessKey: string };
  /** The payment provider (issue 12): a webhook marks invoices paid once its signature is verified. */
  stripe: { secretKey?: string; webhookSecret?: string };
  /** The SMS provider (reminders, "go to bay"); absent: no text messages are queued or sent. */
  sms?: { url: string; accountSid: string; authToken: string; from: string };
  logLevel: string;
  rateLimitDisabled: boolean;
  rateLimitAllowList: string[];
  /** Proxies whose forwarding headers are believed; empty: the socket's address is the client's. */
  trustProxy: string[];
};

/** Parses the environment once; throws one error listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const s3Complete = e.S3_ENDPOINT && e.S3_BUCKET && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY;
  const problems: string[] = [];
  if (e.DATABASE_POOL_MODE === 'transaction' && !(e.DATABASE_URL && e.DATABASE_DIRECT_URL)) {
    problems.push('  DATABASE_POOL_MODE: transaction pooling needs DATABASE_URL (the pooler) and DATABASE_DIRECT_URL (the database itself, for LISTEN)');
  }
  if (e.DATABASE_DIRECT_URL && !e.DATABASE_URL) problems.push('  DATABASE_DIRECT_URL: set DATABASE_URL too');
  if (e.DOCUMENT_STORE === 'database' && !e.DATABASE_URL) problems.push('  DOCUMENT_STORE: `database` needs a PostgreSQL server (DATABASE_URL)');
  if (e.DOCUMENT_STORE === 's3' && !s3Complete) problems.push('  DOCUMENT_STORE: `s3` needs S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  const smsSet = [e.SMS_URL, e.SMS_ACCOUNT_SID, e.SMS_AUTH_TOKEN, e.SMS_FROM].filter(Boolean).length;
  if (smsSet > 0 && smsSet < 4) problems.push('  SMS_URL: text messages need SMS_URL, SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM together');
  if (problems.length > 0) throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL ?? e.DATABASE_URL,
    databasePoolMode: e.DATABASE_POOL_MODE,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    nodeId: e.NODE_ID ?? `${os.hostname().replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 30)}-${process.pid}`,
    redisUrl: e.REDIS_URL,
    documentStore: e.DOCUMENT_STORE ?? (s3Complete ? 's3' : e.DATABASE_URL ? 'database' : 'local'),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    seedDemo: e.SEED_DEMO,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    authSecret: e.AUTH_SECRET,
    dataEncryptionKey: e.DATA_ENCRYPTION_KEY,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    s3: s3Complete
      ? {
          endpoint: e.S3_ENDPOINT!,
          region: e.S3_REGION,
          bucket: e.S3_BUCKET!,
          accessKeyId: e.S3_ACCESS_KEY_ID!,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
        }
      : undefined,
    stripe: { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET },
    sms:
      smsSet === 4 ? { url: e.SMS_URL!.replace(/\/$/, ''), accountSid: e.SMS_ACCOUNT_SID!, authToken: e.SMS_AUTH_TOKEN!, from: e.SMS_FROM! } : undefined,
    logLevel: e.LOG_LEVEL,
    rateLimitDisabled: e.RATE_LIMIT_DISABLED,
    rateLimitAllowList: splitList(e.RATE_LIMIT_ALLOW_LIST),
    trustProxy: splitList(e.TRUST_PROXY),
  };
}
