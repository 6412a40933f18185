import type { Session } from '../../domain/auth-schemas';
import type { App } from '../app';
import type { Database } from '../db/client';
import { bays, organizations, orgMemberships, sites, users } from '../db/schema';
import { hashPassword } from '../auth/passwords';

// Small builders for API tests: real rows through the real schema.

export const TEST_PASSWORD = 'Test-password-1';
let cachedHash: Promise<string> | undefined;
const passwordHash = () => (cachedHash ??= hashPassword(TEST_PASSWORD));

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}-${Math.random().toString(36).slice(2, 7)}`;

export async function createOrg(database: Database, values: Partial<typeof organizations.$inferInsert> = {}) {
  const name = values.name ?? unique('Org');
  const [org] = await database.db
    .insert(organizations)
    .values({ name, slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'), ...values })
    .returning();
  return org!;
}

export async function createUser(database: Database, values: Partial<typeof users.$inferInsert> = {}) {
  const [user] = await database.db
    .insert(users)
    .values({
      email: `${unique('user')}@example.test`,
      passwordHash: await passwordHash(),
      emailConfirmedAt: new Date('2026-01-01T00:00:00Z'),
      ...values,
    })
    .returning();
  return user!;
}

export async function addMember(
  database: Database,
  orgId: string,
  userId: string,
  role: string,
  values: Partial<typeof orgMemberships.$inferInsert> = {},
) {
  const [membership] = await database.db.insert(orgMemberships).values({ orgId, userId, role, ...values }).returning();
  return membership!;
}

export async function createSite(database: Database, orgId: string, values: Partial<typeof sites.$inferInsert> = {}) {
  const [site] = await database.db.insert(sites).values({ orgId, name: unique('Site'), ...values }).returning();
  return site!;
}

export async function createBay(
  database: Database,
  site: { id: string; orgId: string },
  values: Partial<typeof bays.$inferInsert> = {},
) {
  const [bay] = await database.db
    .insert(bays)
    .values({ orgId: site.orgId, siteId: site.id, name: unique('Bay'), heightClearanceM: 4.5, ...values })
    .returning();
  return bay!;
}

export async function signIn(app: App, email: string, password = TEST_PASSWORD, orgId?: string): Promise<Session> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/token?grant_type=password',
    payload: { email, password, ...(orgId ? { orgId } : {}) },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

export const bearer = (session: Session) => ({ authorization: `Bearer ${session.access_token}` });
