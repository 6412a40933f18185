-- SSC appointment-changed callbacks (issue 13): each subscription signs its deliveries with its own
-- secret (encrypted, shown once when the subscription is created), and each delivery row names the
-- subscription or TSR connection it was for, so the Integrations screen can list their logs.
ALTER TABLE "ssc_webhook_subscriptions" ADD COLUMN "signing_secret_enc" text;
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "subscription_id" uuid REFERENCES "ssc_webhook_subscriptions"("id") ON DELETE CASCADE;
--> statement-breakpoint
-- The booking a delivery reports, when the sender knows it (TSR work notes, SSC events): the logs name it.
ALTER TABLE "webhook_deliveries" ADD COLUMN "booking_id" uuid REFERENCES "bookings"("id") ON DELETE SET NULL;
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_subscription_idx" ON "webhook_deliveries" ("subscription_id", "created_at");
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_connection_idx" ON "webhook_deliveries" ("connection_id", "created_at");
--> statement-breakpoint
-- The usage screen counts sign-ins (sessions opened) in a window.
CREATE INDEX "auth_sessions_created_idx" ON "auth_sessions" ("created_at");
--> statement-breakpoint
-- The carrier API looks a tenant's load up by its reference (and refuses booking it twice).
CREATE INDEX "bookings_tenant_reference_idx" ON "bookings" ("org_id", "tenant_id", "tsr_number");
