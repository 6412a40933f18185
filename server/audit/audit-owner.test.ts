import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client';
import { runMigrations } from '../db/migrate';
import { writeAudit } from './write-audit';

// Issue 21 item 7: the application's database role cannot undo the audit log's protection.
// Migration 0015 gives audit_log (and its trigger function) to the NOLOGIN role
// baywise_audit_owner and leaves the database owner SELECT and INSERT only. On PostgreSQL the app
// connects as a plain login role that owns its database (as docs/security.md sets it up): it
// writes and reads entries through the app's own code, and every way of changing, removing or
// unprotecting them fails. On PGlite (one embedded superuser) the ownership moves the same way
// and the trigger is what protects the rows.

const adminUrl = process.env.TEST_DATABASE_URL;

describe('audit_log owner on pglite', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ memory: true });
    await runMigrations(database);
  });
  afterAll(async () => database?.close());

  it('belongs to baywise_audit_owner; the trigger still refuses UPDATE and DELETE', async () => {
    expect(await database.query(`select pg_get_userbyid(relowner) as owner from pg_class where relname = 'audit_log'`)).toEqual([{ owner: 'baywise_audit_owner' }]);
    await writeAudit(database.db, { actor: null, action: 'test.entry', resourceType: 'test', resourceId: null });
    await expect(database.query(`update audit_log set action = 'x'`)).rejects.toThrow(/append-only/);
    await expect(database.query(`delete from audit_log`)).rejects.toThrow(/append-only/);
  });
});

describe.skipIf(!adminUrl)('audit_log owner on postgres, the app as a non-superuser role', () => {
  const suffix = randomBytes(4).toString('hex');
  const appRole = `baywise_app_${suffix}`;
  const password = randomBytes(12).toString('hex');
  const dbName = `baywise_audit_${process.pid}_${suffix}`;
  let admin: pg.Client;
  let migrated: Database;
  let app: Database;
  let appClient: pg.Client;

  const urlFor = (user: string | null, pass: string | null) => {
    const url = new URL(adminUrl!);
    url.pathname = `/${dbName}`;
    if (user) {
      url.username = user;
      url.password = pass ?? '';
    }
    return url.toString();
  };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create role ${appRole} login nosuperuser nocreaterole nocreatedb password '${password}'`);
    // The app's role owns its database (the usual set-up); the schema is migrated by a superuser.
    await admin.query(`create database ${dbName} owner ${appRole}`);
    migrated = await openDatabase({ databaseUrl: urlFor(null, null) });
    await runMigrations(migrated);
    app = await openDatabase({ databaseUrl: urlFor(appRole, password) });
    appClient = new pg.Client({ connectionString: urlFor(appRole, password) });
    await appClient.connect();
  });
  afterAll(async () => {
    await appClient?.end();
    await app?.close();
    await migrated?.close();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.query(`drop role if exists ${appRole}`);
    await admin.end();
  });

  it('the app role is no superuser, owns its database, and not the audit table', async () => {
    expect(await app.query(`select rolsuper, rolcreaterole from pg_roles where rolname = current_user`)).toEqual([{ rolsuper: false, rolcreaterole: false }]);
    expect(await app.query(`select pg_get_userbyid(datdba) as owner from pg_database where datname = current_database()`)).toEqual([{ owner: appRole }]);
    expect(await app.query(`select pg_get_userbyid(relowner) as owner from pg_class where relname = 'audit_log'`)).toEqual([{ owner: 'baywise_audit_owner' }]);
    expect(await app.query(`select pg_has_role(current_user, 'baywise_audit_owner', 'MEMBER') as member`)).toEqual([{ member: false }]);
  });

  it('writes and reads entries through the app code', async () => {
    await writeAudit(app.db, { actor: null, action: 'test.entry', resourceType: 'test', resourceId: null, details: { n: 1 } });
    expect(await app.query(`select action, details from audit_log where action = 'test.entry'`)).toEqual([{ action: 'test.entry', details: { n: 1 } }]);
  });

  it.each([
    ['UPDATE', `update audit_log set action = 'forged'`],
    ['DELETE', `delete from audit_log`],
    ['TRUNCATE', `truncate audit_log`],
    ['DISABLE TRIGGER', `alter table audit_log disable trigger audit_log_no_update_or_delete`],
    ['DISABLE TRIGGER ALL', `alter table audit_log disable trigger all`],
    ['DROP TRIGGER', `drop trigger audit_log_no_update_or_delete on audit_log`],
    ['OWNER TO', `alter table audit_log owner to current_user`],
    ['DROP TABLE', `drop table audit_log`],
    ['DROP FUNCTION CASCADE', `drop function audit_log_refuse_change() cascade`],
    ['DROP SCHEMA CASCADE', `drop schema public cascade`],
    ['DROP SCHEMA baywise_audit', `drop schema baywise_audit cascade`],
    ['DROP EVENT TRIGGER', `drop event trigger audit_log_no_drop`],
    ['DISABLE EVENT TRIGGER', `alter event trigger audit_log_no_drop disable`],
    ['RENAME', `alter table audit_log rename to audit_log_old`],
    ['REPLACE FUNCTION', `create or replace function public.audit_log_refuse_change() returns trigger language plpgsql as $$ begin return new; end $$`],
    ['SET ROLE', `set role baywise_audit_owner`],
  ])('refuses the app role %s', async (_name, statement) => {
    const error = await appClient.query(statement).then(
      () => null,
      (e: { code?: string; message: string }) => e,
    );
    expect(error, statement).toMatchObject({ code: '42501' });
    // Nothing changed: the entry is there, unchanged, and the triggers are on.
    expect(await app.query(`select action from audit_log where action = 'test.entry'`)).toEqual([{ action: 'test.entry' }]);
    expect(await app.query(`select tgname, tgenabled from pg_trigger where tgrelid = 'audit_log'::regclass and not tgisinternal order by tgname`)).toEqual([
      { tgname: 'audit_log_no_truncate', tgenabled: 'O' },
      { tgname: 'audit_log_no_update_or_delete', tgenabled: 'O' },
    ]);
  });

  it('a GRANT by the app role grants nothing (a warning), and UPDATE stays refused', async () => {
    await appClient.query(`grant update, delete on audit_log to current_user`);
    expect(await app.query(`select has_table_privilege('audit_log', 'UPDATE') as u, has_table_privilege('audit_log', 'DELETE') as d`)).toEqual([{ u: false, d: false }]);
    await expect(appClient.query(`update audit_log set action = 'forged'`)).rejects.toMatchObject({ code: '42501' });
  });
});
