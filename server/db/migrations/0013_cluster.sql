-- Issue 23: what several nodes on one PostgreSQL share. Files (when no S3 store is configured)
-- and per-IP request counts.
CREATE TABLE IF NOT EXISTS "stored_objects" (
  "bucket" text NOT NULL,
  "key" text NOT NULL,
  "content_type" text NOT NULL,
  "size_bytes" integer NOT NULL,
  "content" bytea NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "stored_objects_bucket_key_pk" PRIMARY KEY ("bucket", "key")
);
--> statement-breakpoint
-- Unlogged: counts lost in a crash only let a few more requests through.
CREATE UNLOGGED TABLE IF NOT EXISTS "rate_limit_hits" (
  "key" text PRIMARY KEY NOT NULL,
  "hits" integer NOT NULL,
  "reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "rate_limit_hits_reset_idx" ON "rate_limit_hits" ("reset_at");
