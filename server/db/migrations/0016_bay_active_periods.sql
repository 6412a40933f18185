-- Issue 22 item 11: when each bay was in service. The utilisation report counts a bay's open hours
-- only while it was active, and keeps a deactivated bay's history in the range it was active.
-- Kept by triggers on bays, so every writer (the bays API, the demo seed, tests) records it; each
-- period starts at the bay's created_at (insert) or updated_at (activation) and ends at its
-- updated_at when it is deactivated — the times the writer sets, so a frozen clock is honoured.
CREATE TABLE IF NOT EXISTS "bay_active_periods" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "org_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "site_id" uuid NOT NULL REFERENCES "sites"("id") ON DELETE CASCADE,
  "bay_id" uuid NOT NULL REFERENCES "bays"("id") ON DELETE CASCADE,
  "active_from" timestamp with time zone NOT NULL,
  "active_until" timestamp with time zone,
  CONSTRAINT "bay_active_periods_order" CHECK ("active_until" IS NULL OR "active_until" >= "active_from")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "bay_active_periods_org_site_idx" ON "bay_active_periods" ("org_id", "site_id", "bay_id");
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "bay_active_periods_open_idx" ON "bay_active_periods" ("bay_id") WHERE "active_until" IS NULL;
--> statement-breakpoint
-- The bays that exist: active ones since they were made; inactive ones from then until their last change.
INSERT INTO "bay_active_periods" ("org_id", "site_id", "bay_id", "active_from", "active_until")
SELECT b."org_id", b."site_id", b."id", b."created_at",
       CASE WHEN b."active" THEN NULL ELSE greatest(b."updated_at", b."created_at") END
  FROM "bays" b
 WHERE NOT EXISTS (SELECT 1 FROM "bay_active_periods" p WHERE p."bay_id" = b."id");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bay_active_periods_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.active THEN
      INSERT INTO bay_active_periods (org_id, site_id, bay_id, active_from) VALUES (NEW.org_id, NEW.site_id, NEW.id, NEW.created_at);
    END IF;
  ELSIF NEW.active IS DISTINCT FROM OLD.active THEN
    IF NEW.active THEN
      INSERT INTO bay_active_periods (org_id, site_id, bay_id, active_from) VALUES (NEW.org_id, NEW.site_id, NEW.id, NEW.updated_at);
    ELSE
      UPDATE bay_active_periods SET active_until = greatest(NEW.updated_at, active_from)
       WHERE org_id = NEW.org_id AND bay_id = NEW.id AND active_until IS NULL;
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS bays_active_periods ON "bays";
--> statement-breakpoint
CREATE TRIGGER bays_active_periods AFTER INSERT OR UPDATE OF active ON "bays"
  FOR EACH ROW EXECUTE FUNCTION bay_active_periods_track();
