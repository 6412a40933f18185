-- Issue 22 item 13: the monthly booking cap's e-mails (80 % and 100 %) go out once per
-- organization and month; a row here is the record that one was queued.
CREATE TABLE IF NOT EXISTS "booking_cap_alerts" (
  "org_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "period_key" text NOT NULL,
  "percent" integer NOT NULL,
  "allowed" integer NOT NULL,
  "used" integer NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "booking_cap_alerts_pk" PRIMARY KEY ("org_id", "period_key", "percent")
);
