-- One natural order of bay names for the database and the code (decision 038): the key below is
-- the one domain/bay-order.ts naturalBayKey builds, step for step, from operations that do not
-- depend on a locale (the old key used lower(), which follows the database's locale, and lpad(),
-- which cuts digit runs longer than 20), and the column is collated "C", so `order by sort_key`
-- compares code points on every server, as compareBayNames does.
-- 1. NFD, then drop the combining marks U+0300-U+036F ('Ä' -> 'A');
-- 2. ASCII A-Z to lower case, nothing else;
-- 3. each run of ASCII digits without its leading zeros, left-padded with '0' to 40 characters
--    (MAX_BAY_NAME_LENGTH: every run of a valid name fits; a longer run is kept whole).
-- A stored generated column is not recomputed when its function changes: drop it (and the index
-- on it) first, then add it again, which computes every row's key with the new function.
DROP INDEX IF EXISTS "bays_best_fit_idx";
--> statement-breakpoint
ALTER TABLE "bays" DROP COLUMN "sort_key";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "natural_sort_key"(name text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$
    SELECT coalesce(string_agg(
      CASE WHEN part[1] ~ '^[0-9]'
        THEN CASE WHEN length(ltrim(part[1], '0')) >= 40 THEN ltrim(part[1], '0')
                  ELSE lpad(ltrim(part[1], '0'), 40, '0') END
        ELSE part[1] END, '' ORDER BY n), '')
    FROM regexp_matches(
      translate(regexp_replace(normalize(name, NFD), '[\u0300-\u036f]', '', 'g'),
                'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'),
      '([0-9]+|[^0-9]+)', 'g') WITH ORDINALITY AS t(part, n)
  $$;
--> statement-breakpoint
ALTER TABLE "bays" ADD COLUMN "sort_key" text COLLATE "C" GENERATED ALWAYS AS (natural_sort_key("name")) STORED;
--> statement-breakpoint
-- Best-fit order per site, so the booking statement stops at the first free bay (as in 0002).
CREATE INDEX "bays_best_fit_idx" ON "bays" ("site_id", "height_clearance_m", "sort_key", "id") WHERE "active";
