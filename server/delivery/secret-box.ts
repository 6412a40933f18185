import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { Database } from '../db/client';
import { platformSettings } from '../db/schema';

// Secrets we must be able to read back (webhook signing secrets, TSR connection credentials) are
// stored encrypted with AES-256-GCM (node:crypto; a fresh 12-byte IV per value, the 16-byte tag
// checked on decryption). The key is derived with HKDF-SHA256 from DATA_ENCRYPTION_KEY when it is
// set; otherwise from a random key generated once and kept in platform_settings, like the auth
// secret (which protects against a leaked backup of the rows only when the key is configured
// outside the database: set DATA_ENCRYPTION_KEY in production). docs/decisions/021.

const KEY_SETTING = 'data.encryption_key';
const FORMAT = 'v1';
const keys = new WeakMap<Database, Promise<Buffer>>();

async function loadKeyMaterial(database: Database, configured?: string): Promise<string> {
  if (configured) return configured;
  const generated = randomBytes(32).toString('base64url');
  await database.db.insert(platformSettings).values({ key: KEY_SETTING, value: generated }).onConflictDoNothing({ target: platformSettings.key });
  const [row] = await database.db.select({ value: platformSettings.value }).from(platformSettings).where(eq(platformSettings.key, KEY_SETTING));
  return String(row!.value);
}

/** The 32-byte key of this database (derived once per process). */
export function encryptionKey(ctx: Pick<AppContext, 'database' | 'config'>): Promise<Buffer> {
  let key = keys.get(ctx.database);
  if (!key) {
    key = loadKeyMaterial(ctx.database, ctx.config.dataEncryptionKey).then((material) =>
      Buffer.from(hkdfSync('sha256', material, 'baywise', 'stored-secrets-v1', 32)),
    );
    key.catch(() => keys.delete(ctx.database));
    keys.set(ctx.database, key);
  }
  return key;
}

export function encryptWith(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url')}`;
}

export function decryptWith(key: Buffer, sealed: string): string {
  const [format, packed] = sealed.split(':', 2);
  if (format !== FORMAT || !packed) throw new Error('Unknown encrypted-secret format');
  const bytes = Buffer.from(packed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

export async function encryptSecret(ctx: Pick<AppContext, 'database' | 'config'>, plain: string): Promise<string> {
  return encryptWith(await encryptionKey(ctx), plain);
}

export async function decryptSecret(ctx: Pick<AppContext, 'database' | 'config'>, sealed: string): Promise<string> {
  return decryptWith(await encryptionKey(ctx), sealed);
}
