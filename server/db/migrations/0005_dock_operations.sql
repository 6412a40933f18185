-- Dock operations (issue 10): a site's emergency stop, and every number-plate read kept (matched
-- or not) for the dockmaster to resolve.

ALTER TABLE "sites" ADD COLUMN "emergency_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "emergency_reason" text;
--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "emergency_by" uuid REFERENCES "users"("id") ON DELETE set null;
--> statement-breakpoint
CREATE TABLE "plate_reads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
	"site_id" uuid NOT NULL REFERENCES "sites"("id") ON DELETE cascade,
	-- Upper case, letters and digits only.
	"plate" text NOT NULL,
	-- What the camera or the person sent.
	"raw" text,
	"confidence" numeric(5, 4),
	"camera" text,
	-- 'typed', 'photo', 'camera' (the device camera) or 'webhook' (a site camera).
	"source" text NOT NULL,
	"captured_at" timestamp with time zone NOT NULL,
	-- 'matched', 'ambiguous', 'unmatched', 'resolved' or 'ignored'.
	"status" text NOT NULL,
	"booking_id" uuid REFERENCES "bookings"("id") ON DELETE set null,
	-- The action taken on it, if any ('checked_in', 'checked_out').
	"action" text,
	"camera_token_id" uuid REFERENCES "site_camera_tokens"("id") ON DELETE set null,
	"actor_id" uuid REFERENCES "users"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plate_reads_source_known" CHECK ("source" IN ('typed', 'photo', 'camera', 'webhook')),
	CONSTRAINT "plate_reads_status_known" CHECK ("status" IN ('matched', 'ambiguous', 'unmatched', 'resolved', 'ignored'))
);
--> statement-breakpoint
CREATE INDEX "plate_reads_site_time_idx" ON "plate_reads" ("site_id", "captured_at");
--> statement-breakpoint
CREATE INDEX "plate_reads_unmatched_idx" ON "plate_reads" ("site_id", "created_at") WHERE "status" IN ('unmatched', 'ambiguous');
--> statement-breakpoint
-- The gate reads a site's bookings of the day by start time and by status.
CREATE INDEX "bookings_site_status_start_idx" ON "bookings" ("site_id", "status", "start_time");
