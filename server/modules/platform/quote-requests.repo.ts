import { and, count, desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { organizations, quoteRequests, users } from '../../db/schema';

// The quote-request inbox's SQL (platform administrators only).

type Conn = Db | Tx;

const columns = {
  id: quoteRequests.id,
  name: quoteRequests.name,
  company: quoteRequests.company,
  email: quoteRequests.email,
  phone: quoteRequests.phone,
  sites: quoteRequests.sites,
  message: quoteRequests.message,
  status: quoteRequests.status,
  createdAt: quoteRequests.createdAt,
  updatedAt: quoteRequests.updatedAt,
  contactedAt: quoteRequests.contactedAt,
  convertedOrgId: quoteRequests.convertedOrgId,
  convertedOrgName: organizations.name,
  handledByEmail: users.email,
};

const withNames = (db: Conn) =>
  db
    .select(columns)
    .from(quoteRequests)
    .leftJoin(organizations, eq(organizations.id, quoteRequests.convertedOrgId))
    .leftJoin(users, eq(users.id, quoteRequests.handledBy));

export type QuoteRow = NonNullable<Awaited<ReturnType<typeof findQuote>>>;

/** Newest first, optionally of one status, a page at a time. */
export function listQuotes(db: Conn, query: { status?: string; page: number; pageSize: number }) {
  return withNames(db)
    .where(query.status ? eq(quoteRequests.status, query.status) : undefined)
    .orderBy(desc(quoteRequests.createdAt), desc(quoteRequests.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
}

/** How many quote requests there are of each status. */
export async function countByStatus(db: Conn): Promise<Record<string, number>> {
  const rows = await db.select({ status: quoteRequests.status, n: count() }).from(quoteRequests).groupBy(quoteRequests.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

export async function findQuote(db: Conn, quoteId: string) {
  const [row] = await withNames(db).where(eq(quoteRequests.id, quoteId));
  return row;
}

/** The quote request's status, locked until the transaction ends. */
export async function lockQuote(tx: Tx, quoteId: string) {
  const [row] = await tx
    .select({ id: quoteRequests.id, status: quoteRequests.status, company: quoteRequests.company, email: quoteRequests.email })
    .from(quoteRequests)
    .where(eq(quoteRequests.id, quoteId))
    .for('update');
  return row;
}

export async function markContacted(tx: Tx, quoteId: string, by: string, at: Date) {
  await tx
    .update(quoteRequests)
    .set({ status: 'contacted', contactedAt: at, handledBy: by, updatedAt: at })
    .where(and(eq(quoteRequests.id, quoteId), eq(quoteRequests.status, 'new')));
}

export async function markConverted(tx: Tx, quoteId: string, orgId: string, by: string, at: Date) {
  await tx
    .update(quoteRequests)
    .set({ status: 'converted', convertedOrgId: orgId, handledBy: by, updatedAt: at })
    .where(eq(quoteRequests.id, quoteId));
}
