-- Issue 13, outbound: generic signed webhooks per organization and the delivery outbox shared with
-- SSC callbacks and TSR work notes (docs/decisions/021-outbound-webhooks.md).
CREATE TABLE "webhook_endpoints" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "org_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "url" text NOT NULL,
  "description" text,
  "events" text[] NOT NULL,
  "secret_enc" text NOT NULL,
  "secret_hint" text NOT NULL,
  "status" text DEFAULT 'active' NOT NULL,
  "disabled_reason" text,
  "disabled_at" timestamp with time zone,
  "consecutive_failures" integer DEFAULT 0 NOT NULL,
  "created_by" uuid REFERENCES "users"("id") ON DELETE set null,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "webhook_endpoints_status_check" CHECK ("status" IN ('active', 'disabled'))
);
--> statement-breakpoint
CREATE INDEX "webhook_endpoints_org_idx" ON "webhook_endpoints" ("org_id");
--> statement-breakpoint
CREATE TABLE "tsr_connections" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "org_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "system" text NOT NULL,
  "base_url" text NOT NULL,
  "credentials_enc" text NOT NULL,
  "enabled" boolean DEFAULT true NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "tsr_connections_system_check" CHECK ("system" IN ('servicenow', 'fmclarity'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "tsr_connections_org_system_idx" ON "tsr_connections" ("org_id", "system");
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "org_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "kind" text DEFAULT 'webhook' NOT NULL,
  "endpoint_id" uuid REFERENCES "webhook_endpoints"("id") ON DELETE cascade,
  "connection_id" uuid REFERENCES "tsr_connections"("id") ON DELETE cascade,
  "event_type" text NOT NULL,
  "event_id" uuid NOT NULL,
  "url" text NOT NULL,
  "headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "body" text NOT NULL,
  "signing_secret_enc" text,
  "status" text DEFAULT 'pending' NOT NULL,
  "attempts" integer DEFAULT 0 NOT NULL,
  "max_attempts" integer NOT NULL,
  "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
  "locked_until" timestamp with time zone,
  "last_status_code" integer,
  "last_duration_ms" integer,
  "last_error" text,
  "last_attempt_at" timestamp with time zone,
  "delivered_at" timestamp with time zone,
  "redelivery_of" uuid,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'delivered', 'failed')),
  CONSTRAINT "webhook_deliveries_kind_check" CHECK ("kind" IN ('webhook', 'ssc', 'tsr'))
);
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" ("next_attempt_at") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" ("endpoint_id", "created_at");
