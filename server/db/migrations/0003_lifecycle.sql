-- Booking lifecycle (issue 8): only the known statuses, and a version every write carries so a
-- stale screen cannot overwrite a newer change (409).
ALTER TABLE "bookings" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_status_known" CHECK ("status" IN ('pending', 'approved', 'declined', 'cancelled', 'checked_in', 'in_progress', 'completed', 'overstay', 'no_show'));--> statement-breakpoint
-- The dashboard and the sweeps read bookings by status and time.
CREATE INDEX "bookings_org_status_start_idx" ON "bookings" USING btree ("org_id", "status", "start_time");--> statement-breakpoint
DROP INDEX IF EXISTS "bookings_status_idx";
