-- Issue 12: plans and billing, quote-request inbox, impersonation, error monitoring, usage, MFA.
--
-- Plans limit bookings created per calendar month (UTC) besides sites, bays and members.
ALTER TABLE "plans" ADD COLUMN "max_bookings_per_month" integer;
--> statement-breakpoint
-- Invoices: one per organization and billing month (period_key 'YYYY-MM'), so the monthly job is
-- idempotent; line items as issued; how it was paid (by hand, or a provider's event id).
ALTER TABLE "invoices" ADD COLUMN "period_key" text;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "line_items" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "due_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "payment_method" text;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "payment_ref" text;
--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_org_period_idx" ON "invoices" ("org_id", "period_key");
--> statement-breakpoint
-- A provider's webhook event is applied once: a replayed delivery finds its id here.
CREATE TABLE "payment_webhook_events" (
  "event_id" text PRIMARY KEY NOT NULL,
  "provider" text NOT NULL,
  "type" text NOT NULL,
  "invoice_id" uuid,
  "received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Quote-request inbox: contacted, converted into an organization.
ALTER TABLE "quote_requests" ADD COLUMN "contacted_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "quote_requests" ADD COLUMN "converted_org_id" uuid REFERENCES "organizations"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "quote_requests" ADD COLUMN "handled_by" uuid;
--> statement-breakpoint
ALTER TABLE "quote_requests" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
-- Impersonation: the session belongs to the acting user; the platform user behind it and why.
ALTER TABLE "auth_sessions" ADD COLUMN "impersonator_id" uuid REFERENCES "users"("id") ON DELETE CASCADE;
--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD COLUMN "impersonation_reason" text;
--> statement-breakpoint
-- Every audit entry written during an impersonation names the real user too (INSERT only: 0007).
ALTER TABLE "audit_log" ADD COLUMN "impersonator_id" uuid;
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "impersonator_email" text;
--> statement-breakpoint
-- Error monitoring: server and browser errors grouped by fingerprint; a group is resolved or open.
ALTER TABLE "error_events" ADD COLUMN "source" text DEFAULT 'server' NOT NULL;
--> statement-breakpoint
ALTER TABLE "error_events" ADD COLUMN "fingerprint" text;
--> statement-breakpoint
ALTER TABLE "error_events" ADD COLUMN "details" jsonb DEFAULT '{}'::jsonb NOT NULL;
--> statement-breakpoint
CREATE INDEX "error_events_fingerprint_idx" ON "error_events" ("fingerprint", "created_at");
--> statement-breakpoint
CREATE TABLE "error_groups" (
  "fingerprint" text PRIMARY KEY NOT NULL,
  "status" text DEFAULT 'open' NOT NULL,
  "resolved_at" timestamp with time zone,
  "resolved_by" uuid,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "error_groups_status_check" CHECK ("status" IN ('open', 'resolved'))
);
--> statement-breakpoint
-- Usage: API and webhook calls counted per organization and UTC day.
CREATE TABLE "usage_counters" (
  "org_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "day" date NOT NULL,
  "kind" text NOT NULL,
  "count" integer DEFAULT 0 NOT NULL,
  CONSTRAINT "usage_counters_pk" PRIMARY KEY ("org_id", "day", "kind")
);
--> statement-breakpoint
-- Two-factor sign-in (TOTP) for platform roles: the secret once confirmed, the last time-step used
-- (a code is accepted once), and ten single-use recovery codes kept as hashes.
CREATE TABLE "user_mfa" (
  "user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "secret" text NOT NULL,
  "confirmed_at" timestamp with time zone,
  "last_used_step" bigint,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mfa_recovery_codes" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "code_hash" text NOT NULL,
  "used_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mfa_recovery_codes_user_idx" ON "mfa_recovery_codes" ("user_id");
