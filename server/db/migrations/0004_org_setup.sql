-- The organization's own setup (issue 9): sites with several opening windows a day, recurring
-- blackouts and holiday closures, tenants with a booking policy, invitations, organization
-- settings and the number-plate cameras' webhook tokens.

-- A weekday's hours become a list of windows ({open, close}, in order); a closed day an empty list.
UPDATE "sites" SET "operating_hours" = (
  SELECT coalesce(jsonb_object_agg(key, CASE jsonb_typeof(value)
           WHEN 'object' THEN jsonb_build_array(value)
           WHEN 'array' THEN value
           ELSE '[]'::jsonb END), '{}'::jsonb)
    FROM jsonb_each("operating_hours"));
--> statement-breakpoint
ALTER TABLE "sites" ALTER COLUMN "operating_hours" SET DEFAULT '{"mon":[{"open":"06:00","close":"22:00"}],"tue":[{"open":"06:00","close":"22:00"}],"wed":[{"open":"06:00","close":"22:00"}],"thu":[{"open":"06:00","close":"22:00"}],"fri":[{"open":"06:00","close":"22:00"}],"sat":[{"open":"08:00","close":"18:00"}],"sun":[{"open":"10:00","close":"16:00"}]}'::jsonb;
--> statement-breakpoint
-- Site names are unique per organization whatever their case.
DROP INDEX IF EXISTS "sites_org_name_idx";
--> statement-breakpoint
CREATE UNIQUE INDEX "sites_org_name_idx" ON "sites" ("org_id", lower("name"));
--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_slot_interval_range" CHECK ("slot_interval_min" BETWEEN 5 AND 240);
--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_min_advance_range" CHECK ("min_advance_min" BETWEEN 0 AND 43200);
--> statement-breakpoint
ALTER TABLE "bays" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
-- Bay names are unique per site whatever their case.
DROP INDEX IF EXISTS "bays_site_name_idx";
--> statement-breakpoint
CREATE UNIQUE INDEX "bays_site_name_idx" ON "bays" ("site_id", lower("name"));
--> statement-breakpoint
ALTER TABLE "bays" ADD CONSTRAINT "bays_dimensions_positive" CHECK ("height_clearance_m" > 0 AND ("length_m" IS NULL OR "length_m" > 0) AND "capacity" >= 1);
--> statement-breakpoint
-- Recurring blackouts: an RFC 5545 recurrence rule in the site's time zone, expanded into
-- ordinary blackout rows (series_id set) up to the longest booking horizon, so availability and
-- the one-statement booking read one table.
CREATE TABLE "blackout_series" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
	"site_id" uuid NOT NULL REFERENCES "sites"("id") ON DELETE cascade,
	"bay_id" uuid REFERENCES "bays"("id") ON DELETE cascade,
	"rrule" text NOT NULL,
	"starts_on" date NOT NULL,
	"start_local" text NOT NULL,
	"duration_min" integer NOT NULL,
	"until" date,
	"reason" text,
	"created_by" uuid REFERENCES "users"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expanded_until" date,
	CONSTRAINT "blackout_series_duration_range" CHECK ("duration_min" BETWEEN 1 AND 10080)
);
--> statement-breakpoint
CREATE INDEX "blackout_series_site_idx" ON "blackout_series" ("site_id");
--> statement-breakpoint
ALTER TABLE "blackouts" ADD COLUMN "series_id" uuid REFERENCES "blackout_series"("id") ON DELETE cascade;
--> statement-breakpoint
-- 'holiday': a dated site-wide closure entered with the site's hours.
ALTER TABLE "blackouts" ADD COLUMN "kind" text DEFAULT 'blackout' NOT NULL;
--> statement-breakpoint
ALTER TABLE "blackouts" ADD CONSTRAINT "blackouts_kind_known" CHECK ("kind" IN ('blackout', 'holiday'));
--> statement-breakpoint
ALTER TABLE "blackouts" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
CREATE INDEX "blackouts_series_idx" ON "blackouts" ("series_id") WHERE "series_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "blackouts_org_time_idx" ON "blackouts" ("org_id", "start_time");
--> statement-breakpoint
-- Tenants: contacts, a status and a booking policy; portal requests link to them by e-mail domain
-- or company name (docs/tenant-linking.md).
ALTER TABLE "tenants" ADD COLUMN "contact_emails" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "email_domains" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;
--> statement-breakpoint
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_status_known" CHECK ("status" IN ('active', 'blocked'));
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "blocked_reason" text;
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "auto_approve" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- null: every site of the organization.
ALTER TABLE "tenants" ADD COLUMN "allowed_site_ids" uuid[];
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "max_bookings_per_day" integer;
--> statement-breakpoint
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_max_per_day_positive" CHECK ("max_bookings_per_day" IS NULL OR "max_bookings_per_day" > 0);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
UPDATE "tenants" SET "contact_emails" = ARRAY[lower("email")] WHERE "email" IS NOT NULL AND "email" <> '';
--> statement-breakpoint
UPDATE "tenants" SET "status" = 'blocked' WHERE NOT "active";
--> statement-breakpoint
CREATE INDEX "tenants_email_domains_idx" ON "tenants" USING gin ("email_domains");
--> statement-breakpoint
CREATE INDEX "bookings_tenant_start_idx" ON "bookings" ("tenant_id", "start_time") WHERE "tenant_id" IS NOT NULL;
--> statement-breakpoint
-- Team invitations: the e-mail carries a one-time link to set a password.
CREATE TABLE "org_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
	"email" text NOT NULL,
	"full_name" text,
	"role" text NOT NULL,
	"employee_id" text,
	"token_hash" text NOT NULL UNIQUE,
	"invited_by" uuid REFERENCES "users"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"user_id" uuid REFERENCES "users"("id") ON DELETE set null,
	CONSTRAINT "org_invitations_role_known" CHECK ("role" IN ('org_admin', 'dockmaster', 'security'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "org_invitations_pending_email_idx" ON "org_invitations" ("org_id", lower("email")) WHERE "accepted_at" IS NULL AND "revoked_at" IS NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "org_invitations_pending_employee_idx" ON "org_invitations" ("org_id", lower("employee_id")) WHERE "accepted_at" IS NULL AND "revoked_at" IS NULL AND "employee_id" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "org_memberships" ADD COLUMN "deactivated_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "org_memberships" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
-- Employee IDs are unique per organization whatever their case ('dm-01' = 'DM-01').
DROP INDEX IF EXISTS "org_memberships_employee_idx";
--> statement-breakpoint
CREATE UNIQUE INDEX "org_memberships_employee_idx" ON "org_memberships" ("org_id", lower("employee_id"));
--> statement-breakpoint
-- Organization profile and settings (domain/org-settings.ts parses them with their defaults).
ALTER TABLE "organizations" ADD COLUMN "settings" jsonb DEFAULT '{}'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "address" text;
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "logo_key" text;
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "logo_content_type" text;
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
-- Number-plate cameras post their reads with a per-site token (shown once, stored hashed).
CREATE TABLE "site_camera_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
	"site_id" uuid NOT NULL REFERENCES "sites"("id") ON DELETE cascade,
	"name" text NOT NULL,
	"token_hash" text NOT NULL UNIQUE,
	"token_hint" text NOT NULL,
	"created_by" uuid REFERENCES "users"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "site_camera_tokens_site_idx" ON "site_camera_tokens" ("site_id");
