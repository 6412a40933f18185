-- Reports (issue 11): the figures are computed from bookings on each request (no rollup table, so
-- nothing can drift from the bookings themselves); these indexes keep each report's read to the
-- rows of its own organization and range (docs/decisions/013-reports.md).

-- The time a booking has on its bay, booked or actual: from the earlier of its start and the
-- moment it really started, to the later of its end and its check-out; still at the bay (started,
-- not checked out): no end yet. Utilisation reads the bookings whose span meets the range.
CREATE FUNCTION "booking_bay_span"(start_time timestamptz, end_time timestamptz, started_at timestamptz, completed_at timestamptz)
  RETURNS tstzrange
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT tstzrange(least(start_time, started_at),
                     CASE WHEN started_at IS NOT NULL AND completed_at IS NULL THEN NULL
                          ELSE greatest(end_time, completed_at) END,
                     '[)')
  $$;
--> statement-breakpoint
-- Utilisation: an organization's bookings that hold a bay (declined, cancelled and no-show ones
-- never did), by the span above. A booking over midnight, or one started early or checked out
-- late, is found from either day.
CREATE INDEX "bookings_report_span_idx" ON "bookings"
  USING gist ("org_id", booking_bay_span("start_time", "end_time", "started_at", "completed_at"))
  WHERE "status" NOT IN ('declined', 'cancelled', 'no_show');
--> statement-breakpoint
-- Utilisation subtracts the blackouts (and holiday closures) that meet the range, however long ago
-- they began.
CREATE INDEX "blackouts_org_during_idx" ON "blackouts" USING gist ("org_id", tstzrange("start_time", "end_time", '[)'));
