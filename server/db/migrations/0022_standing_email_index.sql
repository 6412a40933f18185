-- A haulier's own standing bookings, across organizations, by their sign-in e-mail, newest first
-- (haulier-accounts.repo.ts listStandingBookingsAnyOrg): without it the list read every standing booking.
CREATE INDEX IF NOT EXISTS "standing_bookings_email_lower_idx" ON "standing_bookings" USING btree (lower("tenant_email"),"created_at");
