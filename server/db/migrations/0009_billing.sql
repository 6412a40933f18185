-- Issue 12, plans and billing (docs/decisions/022-billing.md).
--
-- Plan limits on bookings count the bookings an organization created in the calendar month (UTC):
-- an index on (org_id, created_at) keeps that count a short range scan.
CREATE INDEX "bookings_org_created_idx" ON "bookings" ("org_id", "created_at");
--> statement-breakpoint
-- The portal's booking path keeps each organization's rules in memory, checked against
-- organizations.config_version inside its statement. The monthly booking limit is part of those
-- rules: assigning a plan, or changing a plan's booking limit, moves the counter too.
CREATE TRIGGER "billing_bump_org_config_version" AFTER INSERT OR UPDATE OR DELETE ON "billing"
  FOR EACH ROW EXECUTE FUNCTION bump_org_config_version();
--> statement-breakpoint
CREATE FUNCTION "bump_plan_orgs_config_version"() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    UPDATE organizations SET config_version = config_version + 1
     WHERE id IN (SELECT org_id FROM billing WHERE plan_id = NEW.id);
    RETURN NULL;
  END;
  $$;
--> statement-breakpoint
CREATE TRIGGER "plans_bump_org_config_version" AFTER UPDATE OF "max_bookings_per_month" ON "plans"
  FOR EACH ROW WHEN (OLD."max_bookings_per_month" IS DISTINCT FROM NEW."max_bookings_per_month")
  EXECUTE FUNCTION bump_plan_orgs_config_version();
--> statement-breakpoint
-- Invoice numbers issued by the monthly job: INV-YYYYMM-NNNNNN from one sequence (unique across
-- organizations and nodes; a run that finds the month already invoiced leaves a gap).
CREATE SEQUENCE "invoice_number_seq";
