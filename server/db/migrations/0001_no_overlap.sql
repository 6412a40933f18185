-- Live bookings on one bay can never overlap. Declined, cancelled and no-show bookings release the bay.
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_no_overlap"
  EXCLUDE USING gist ("bay_id" WITH =, tstzrange("start_time", "end_time", '[)') WITH &&)
  WHERE ("status" NOT IN ('declined', 'cancelled', 'no_show'));
--> statement-breakpoint
-- Spec §3 "profiles: user_id, email": a read-only view over users.
CREATE VIEW "profiles" AS SELECT "id" AS "user_id", "email", "full_name", "phone" FROM "users";
