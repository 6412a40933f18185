-- Issue 27, haulier self-service: password-less haulier accounts (one-time sign-in links, sessions,
-- saved vehicles and contacts), standing (recurring) bookings expanded by the job runner exactly once
-- per date, and the language a booking was made in.
CREATE TABLE IF NOT EXISTS "haulier_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sign_in_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "haulier_accounts_email_idx" ON "haulier_accounts" (lower("email"));
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "haulier_sign_in_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL UNIQUE,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "haulier_sign_in_links_email_idx" ON "haulier_sign_in_links" (lower("email"), "created_at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "haulier_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "haulier_accounts"("id") ON DELETE cascade,
	"token_hash" text NOT NULL UNIQUE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "haulier_sessions_account_idx" ON "haulier_sessions" ("account_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "haulier_saved_vehicles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "haulier_accounts"("id") ON DELETE cascade,
	"label" text,
	"vehicle_type" text NOT NULL,
	"vehicle_registration" text NOT NULL,
	"vehicle_height_m" numeric(5, 2) NOT NULL,
	"vehicle_length_m" numeric(5, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "haulier_saved_vehicles_reg_idx" ON "haulier_saved_vehicles" ("account_id", upper("vehicle_registration"));
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "haulier_saved_contacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "haulier_accounts"("id") ON DELETE cascade,
	"company_name" text NOT NULL,
	"contact_name" text,
	"phone" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "haulier_saved_contacts_account_idx" ON "haulier_saved_contacts" ("account_id");
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN IF NOT EXISTS "language" text DEFAULT 'en' NOT NULL;
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN IF NOT EXISTS "standing_requests_allowed" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "standing_bookings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
	"site_id" uuid NOT NULL REFERENCES "sites"("id") ON DELETE cascade,
	"tenant_id" uuid REFERENCES "tenants"("id") ON DELETE set null,
	"status" text DEFAULT 'active' NOT NULL,
	"weekdays" integer[] NOT NULL,
	"start_local" text NOT NULL,
	"duration_min" integer NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date,
	"weeks_ahead" integer DEFAULT 4 NOT NULL,
	"expanded_through" date,
	"booking_type" text DEFAULT 'delivery' NOT NULL,
	"tsr_number" text NOT NULL,
	"tenant_name" text NOT NULL,
	"contact_name" text,
	"tenant_email" text NOT NULL,
	"tenant_phone" text,
	"vehicle_type" text NOT NULL,
	"vehicle_registration" text NOT NULL,
	"vehicle_height_m" numeric(5, 2) NOT NULL,
	"vehicle_length_m" numeric(5, 2),
	"goods_description" text,
	"notes" text,
	"language" text DEFAULT 'en' NOT NULL,
	"requested_by_account_id" uuid REFERENCES "haulier_accounts"("id") ON DELETE set null,
	"created_by" uuid REFERENCES "users"("id") ON DELETE set null,
	"decided_by" uuid REFERENCES "users"("id") ON DELETE set null,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "standing_bookings_status_check" CHECK ("status" IN ('requested', 'active', 'declined', 'cancelled', 'ended')),
	CONSTRAINT "standing_bookings_duration_check" CHECK ("duration_min" > 0 AND "duration_min" <= 1440),
	CONSTRAINT "standing_bookings_weeks_ahead_check" CHECK ("weeks_ahead" BETWEEN 1 AND 26),
	CONSTRAINT "standing_bookings_dates_check" CHECK ("ends_on" IS NULL OR "ends_on" >= "starts_on")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "standing_bookings_org_idx" ON "standing_bookings" ("org_id", "status");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "standing_booking_occurrences" (
	"standing_booking_id" uuid NOT NULL REFERENCES "standing_bookings"("id") ON DELETE cascade,
	"occurrence_date" date NOT NULL,
	"org_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
	"status" text NOT NULL,
	"booking_id" uuid REFERENCES "bookings"("id") ON DELETE set null,
	"conflict_code" text,
	"conflict_message" text,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid REFERENCES "users"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "standing_booking_occurrences_pk" PRIMARY KEY ("standing_booking_id", "occurrence_date"),
	CONSTRAINT "standing_booking_occurrences_status_check" CHECK ("status" IN ('booked', 'conflict', 'skipped', 'cancelled'))
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "standing_booking_occurrences_conflicts_idx" ON "standing_booking_occurrences" ("org_id", "occurrence_date") WHERE "status" = 'conflict';
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN IF NOT EXISTS "standing_booking_id" uuid REFERENCES "standing_bookings"("id") ON DELETE set null;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "bookings_standing_idx" ON "bookings" ("standing_booking_id") WHERE "standing_booking_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "bookings_email_lower_idx" ON "bookings" (lower("tenant_email"), "start_time");
