-- Issue 13: API keys per tenant, and the SSC appointment API (docs/decisions/020-carrier-api.md).
--
-- An API key acts for one tenant of an organization with a set of scopes. Only the SHA-256 of the
-- secret is stored; the hint (its last four characters) tells keys apart after it has been shown.
CREATE TABLE "api_keys" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "org_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
  "name" text NOT NULL,
  "secret_hash" text NOT NULL UNIQUE,
  "secret_hint" text NOT NULL,
  "scopes" text[] NOT NULL,
  "rate_limit_per_minute" integer DEFAULT 600 NOT NULL,
  "expires_at" timestamp with time zone,
  "created_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_used_at" timestamp with time zone,
  "revoked_at" timestamp with time zone,
  CONSTRAINT "api_keys_rate_limit_positive" CHECK ("rate_limit_per_minute" > 0)
);
--> statement-breakpoint
CREATE INDEX "api_keys_org_idx" ON "api_keys" ("org_id", "created_at");
--> statement-breakpoint
-- What the SSC standard knows of a booking made through it: the load's references (the primary
-- reference is also the booking's TSR number), the stop, the loading type and the last reason.
CREATE TABLE "ssc_appointments" (
  "booking_id" uuid PRIMARY KEY NOT NULL REFERENCES "bookings"("id") ON DELETE CASCADE,
  "org_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
  "api_key_id" uuid REFERENCES "api_keys"("id") ON DELETE SET NULL,
  "primary_reference_number" text NOT NULL,
  "po_number" text,
  "bol_number" text,
  "stop_sequence_number" integer,
  "loading_type" text NOT NULL,
  "equipment_type" text NOT NULL,
  "last_reason_code" text,
  "last_comment" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ssc_appointments_reference_idx" ON "ssc_appointments" ("org_id", "tenant_id", "primary_reference_number");
--> statement-breakpoint
-- SSC webhook subscriptions of a tenant (delivery is the outbound webhook engine's job).
CREATE TABLE "ssc_webhook_subscriptions" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "org_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
  "api_key_id" uuid REFERENCES "api_keys"("id") ON DELETE SET NULL,
  "event_types" text[] NOT NULL,
  "callback_url" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ssc_webhook_subscriptions_tenant_idx" ON "ssc_webhook_subscriptions" ("org_id", "tenant_id", "created_at");
