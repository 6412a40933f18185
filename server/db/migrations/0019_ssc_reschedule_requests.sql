-- Issue 24: a carrier's reschedule of a confirmed appointment that the approval policy does not
-- approve at once waits for the site (the SSC standard's practice): the booking keeps its
-- confirmed slot and the requested one is kept here until an org admin accepts or refuses it.
ALTER TABLE "ssc_appointments" ADD COLUMN IF NOT EXISTS "requested_start_time" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "ssc_appointments" ADD COLUMN IF NOT EXISTS "requested_duration_min" integer;
--> statement-breakpoint
ALTER TABLE "ssc_appointments" ADD COLUMN IF NOT EXISTS "requested_loading_type" text;
--> statement-breakpoint
ALTER TABLE "ssc_appointments" ADD COLUMN IF NOT EXISTS "requested_at" timestamp with time zone;
