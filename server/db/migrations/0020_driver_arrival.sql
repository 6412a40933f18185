-- Issue 26, the driver's side of arrival: kiosk devices at a site's gate, walk-in requests a kiosk
-- takes for the dockmaster, reminders sent once per booking and offset, the haulier's running-late
-- report, and the optional text-message outbox.
CREATE TABLE IF NOT EXISTS "site_kiosk_devices" (
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
CREATE INDEX IF NOT EXISTS "site_kiosk_devices_site_idx" ON "site_kiosk_devices" ("site_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "kiosk_walk_in_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
	"site_id" uuid NOT NULL REFERENCES "sites"("id") ON DELETE cascade,
	"device_id" uuid REFERENCES "site_kiosk_devices"("id") ON DELETE set null,
	"vehicle_registration" text NOT NULL,
	"company_name" text NOT NULL,
	"driver_name" text,
	"driver_phone" text,
	"booking_type" text DEFAULT 'delivery' NOT NULL,
	"notes" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"booking_id" uuid REFERENCES "bookings"("id") ON DELETE set null,
	"decided_by" uuid REFERENCES "users"("id") ON DELETE set null,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kiosk_walk_in_requests_status_check" CHECK ("status" IN ('pending', 'accepted', 'declined'))
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "kiosk_walk_in_requests_site_idx" ON "kiosk_walk_in_requests" ("site_id", "created_at") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "booking_reminders" (
	"booking_id" uuid NOT NULL REFERENCES "bookings"("id") ON DELETE cascade,
	"offset_minutes" integer NOT NULL,
	"channel" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_reminders_pk" PRIMARY KEY ("booking_id", "offset_minutes", "channel"),
	CONSTRAINT "booking_reminders_channel_check" CHECK ("channel" IN ('email', 'sms'))
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN IF NOT EXISTS "late_eta" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN IF NOT EXISTS "late_reported_at" timestamp with time zone;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sms_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid REFERENCES "organizations"("id") ON DELETE set null,
	"kind" text NOT NULL,
	"to_phone" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"provider_message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "sms_outbox_status_check" CHECK ("status" IN ('pending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sms_outbox_due_idx" ON "sms_outbox" ("next_attempt_at") WHERE "status" = 'pending';
