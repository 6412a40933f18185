-- The audit log is append-only (issue 12): a row, once written, is never changed or removed — not
-- by the product, not by a mistaken script. A trigger refuses UPDATE and DELETE on each row and
-- TRUNCATE on the table, naming the table and the operation.
--
-- The foreign key from audit_log.org_id to organizations (ON DELETE SET NULL) would itself update
-- audit rows when an organization is deleted, and would now make that deletion fail. It is dropped:
-- an entry keeps the id of the organization it was about, even after that organization is gone
-- (the trail outlives what it records; the audit list shows it without a name). actor_id and
-- site_id never had a foreign key.
ALTER TABLE "audit_log" DROP CONSTRAINT IF EXISTS "audit_log_org_id_organizations_id_fk";
--> statement-breakpoint
CREATE FUNCTION "audit_log_refuse_change"() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP
      USING ERRCODE = 'insufficient_privilege',
            HINT = 'Audit entries are written once (INSERT) and never changed or removed.';
  END;
  $$;
--> statement-breakpoint
CREATE TRIGGER "audit_log_no_update_or_delete" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();
--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
--> statement-breakpoint
-- The audit list filters by actor, action and resource type, newest first.
CREATE INDEX "audit_log_actor_idx" ON "audit_log" ("actor_id", "created_at");
--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" ("action", "created_at");
