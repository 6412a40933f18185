-- Hardening of the public surface (issue 6).
-- How far ahead the portal offers slots, per site.
ALTER TABLE "sites" ADD COLUMN "booking_horizon_days" integer DEFAULT 60 NOT NULL;
--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_booking_horizon_range" CHECK ("booking_horizon_days" BETWEEN 1 AND 730);
--> statement-breakpoint
-- One vehicle cannot hold two live bookings at overlapping times in one organization, on any bay.
-- The registration is compared without case, spaces or punctuation ("ab 12-cd" = "AB12CD").
-- A completed booking has left the site, so it frees the vehicle (it still holds its bay's time).
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_vehicle_no_overlap"
  EXCLUDE USING gist (
    "org_id" WITH =,
    (upper(regexp_replace("vehicle_registration", '[^A-Za-z0-9]', '', 'g'))) WITH =,
    tstzrange("start_time", "end_time", '[)') WITH &&
  )
  WHERE ("status" NOT IN ('declined', 'cancelled', 'no_show', 'completed'));
--> statement-breakpoint
-- E-mail is written here in the same transaction as the change that causes it, then delivered
-- (with retries) by the outbox worker: a crash between commit and delivery loses nothing.
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid,
	"kind" text NOT NULL,
	"recipients" text[] DEFAULT '{}'::text[] NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "mail_outbox_status_check" CHECK ("status" IN ('pending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" ("next_attempt_at") WHERE "status" = 'pending';
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
-- Per-address sign-in failures (progressive delay per IP).
CREATE INDEX "login_failures_ip_idx" ON "login_failures" ("ip", "created_at");
--> statement-breakpoint
-- One row per minute the server was up: the measured uptime shown on the platform sign-in page.
CREATE TABLE "uptime_checks" (
	"minute" timestamp with time zone PRIMARY KEY NOT NULL,
	"ok" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
-- An Idempotency-Key replayed with a different body is refused: the first request's fingerprint.
ALTER TABLE "bookings" ADD COLUMN "idempotency_fingerprint" text;
--> statement-breakpoint
-- Best fit orders bays by clearance, then by name in natural order ('B-2' before 'B-10'): a sort
-- key with every run of digits padded, kept by the database itself.
CREATE FUNCTION "natural_sort_key"(name text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$
    SELECT coalesce(string_agg(
      CASE WHEN part[1] ~ '^[0-9]' THEN lpad(part[1], 20, '0') ELSE lower(part[1]) END, '' ORDER BY n), '')
    FROM regexp_matches(name, '([0-9]+|[^0-9]+)', 'g') WITH ORDINALITY AS t(part, n)
  $$;
--> statement-breakpoint
ALTER TABLE "bays" ADD COLUMN "sort_key" text GENERATED ALWAYS AS (natural_sort_key("name")) STORED;
--> statement-breakpoint
-- The booking path keeps each organization's site rules (time zone, hours, advance, horizon) in
-- memory; every change to a site moves this counter, and a booking made with an older copy is
-- refused by the database and retried with fresh rules.
ALTER TABLE "organizations" ADD COLUMN "config_version" bigint DEFAULT 1 NOT NULL;
--> statement-breakpoint
CREATE FUNCTION "bump_org_config_version"() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    UPDATE organizations SET config_version = config_version + 1
     WHERE id IN (SELECT org_id FROM (SELECT NEW.org_id AS org_id WHERE TG_OP <> 'DELETE'
                                      UNION SELECT OLD.org_id WHERE TG_OP <> 'INSERT') ids);
    RETURN NULL;
  END;
  $$;
--> statement-breakpoint
CREATE TRIGGER "sites_bump_org_config_version" AFTER INSERT OR UPDATE OR DELETE ON "sites"
  FOR EACH ROW EXECUTE FUNCTION bump_org_config_version();
--> statement-breakpoint
-- Best-fit order per site, so the booking statement stops at the first free bay.
CREATE INDEX "bays_best_fit_idx" ON "bays" ("site_id", "height_clearance_m", "sort_key", "id") WHERE "active";
