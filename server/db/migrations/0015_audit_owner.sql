-- The audit log belongs to a role of its own (issue 21 item 7, docs/security.md "Audit").
-- Until now the application's role owned audit_log, so it could ALTER it, DISABLE its append-only
-- trigger (0007) and then change or remove entries. Here, where the role running the migration
-- is allowed to (a superuser: the PostgreSQL set-up the docs describe, and the test server),
-- a NOLOGIN role `baywise_audit_owner` is created if it does not exist and made the owner of the
-- table and its trigger function; the database's owner and the migrating role keep SELECT and
-- INSERT only. An application role that is neither superuser nor a member of
-- baywise_audit_owner can then add entries and read them, and nothing else: UPDATE, DELETE,
-- TRUNCATE, ALTER TABLE (DISABLE TRIGGER, OWNER TO), DROP TRIGGER all fail for lack of privilege.
-- A superuser is not bound by ownership (nothing in the database can bind it): the trigger still
-- refuses its UPDATE and DELETE, as before.
-- Without the right (a non-superuser runs the migration) nothing changes and a NOTICE says so;
-- docs/security.md gives the statements for the database administrator. On PGlite the one
-- embedded user is a superuser: the same statements run, and only the trigger protects the rows.
DO $$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    RAISE NOTICE 'audit_log keeps its owner: run docs/security.md "Audit" as a superuser to give it to baywise_audit_owner';
    RETURN;
  END IF;
  BEGIN
    CREATE ROLE baywise_audit_owner NOLOGIN;
  EXCEPTION WHEN duplicate_object OR unique_violation THEN
    NULL; -- created by another database of this server (roles are server-wide), or a concurrent migration
  END;
  ALTER TABLE "audit_log" OWNER TO baywise_audit_owner;
  ALTER FUNCTION "audit_log_refuse_change"() OWNER TO baywise_audit_owner;
  REVOKE ALL ON "audit_log" FROM PUBLIC;
  EXECUTE format('GRANT SELECT, INSERT ON "audit_log" TO %I', current_user);
  EXECUTE format('GRANT SELECT, INSERT ON "audit_log" TO %I', (SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()));
  -- The owner of the schema (on PostgreSQL 15 and later `public` belongs to the database's owner,
  -- often the app's role) may DROP any object in it whoever owns it: the table, its trigger
  -- function (CASCADE takes the triggers), the schema itself. An event trigger — which only a
  -- superuser can create, alter or disable — refuses dropping any of the audit log's objects
  -- unless a superuser does it. Its function lives in a schema of the audit owner's, so that
  -- dropping `public` with CASCADE cannot take it along.
  CREATE SCHEMA IF NOT EXISTS "baywise_audit" AUTHORIZATION baywise_audit_owner;
  CREATE FUNCTION "baywise_audit"."audit_log_refuse_drop"() RETURNS event_trigger
    LANGUAGE plpgsql
    AS $f$
    BEGIN
      IF EXISTS (SELECT 1 FROM pg_catalog.pg_event_trigger_dropped_objects() WHERE object_identity LIKE '%audit_log%')
         AND NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'audit_log is append-only: its table, triggers and functions cannot be dropped'
          USING ERRCODE = 'insufficient_privilege';
      END IF;
    END;
    $f$;
  ALTER FUNCTION "baywise_audit"."audit_log_refuse_drop"() OWNER TO baywise_audit_owner;
  CREATE EVENT TRIGGER "audit_log_no_drop" ON sql_drop EXECUTE FUNCTION "baywise_audit"."audit_log_refuse_drop"();
END
$$;
