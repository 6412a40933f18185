import { LIVE_BOOKING_STATUSES, RELEASED_BOOKING_STATUSES } from '../../../domain/booking-lifecycle';
import { DEFAULT_LANGUAGE } from '../../../domain/languages';
import { WEBHOOK_MAX_ATTEMPTS } from '../../../domain/webhooks';
import { statusListText } from '../../db/sql-status';

// The text of the one statement that books a slot (book-slot-fast.ts runs it): the portal's
// (BOOK_SLOT_SQL) and a channel's (BOOK_CHANNEL_SQL) share the bay choice, the booking and the
// outbox, and differ in who books and how the audit row names them. Parameters: $1 org, $2
// config_version, $3–$5 the windows (sites, starts, ends), $6–$8 the vehicle (height, length,
// needs), $9 the booking record, $10–$12 the audit (details, ip, at), $13–$14 the mail; then the
// portal's link keys ($15 domain, $16 e-mail, $17 name) or the channel's ($15 tenant, $16 actor,
// $17 load reference, $18 stop, $19 idempotency key, $20 the ssc_appointments row).
//
// The bay-and-day advisory lock (the `locked` step) uses the same key as claim-bay.ts claimBay,
// written inline in each: both paths queue on one lock.

const RELEASED = statusListText(RELEASED_BOOKING_STATUSES);

/** An instant as JavaScript's toISOString() writes it (the webhook envelope). */
const ISO_UTC = (expression: string) => `to_char(${expression} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// The statement in parts: who books (the tenant the portal request links to, or the channel's
// tenant), the bay and the booking, the audit row (anonymous, or the channel's actor), the outbox.
const PORTAL_GATE = `
with t as (
  -- The tenant the request links to: by e-mail domain, then contact e-mail, then company name.
  select t.id, t.status, t.auto_approve, t.allowed_site_ids, t.max_bookings_per_day
    from tenants t
   where t.org_id = $1
     and (t.email_domains @> array[$15::text] or t.contact_emails @> array[$16::text] or lower(t.name) = lower($17::text))
   order by case when t.email_domains @> array[$15::text] then 0 when t.contact_emails @> array[$16::text] then 1 else 2 end,
            t.created_at, t.id
   limit 1
), gate as (
  -- Unlinked, or an active tenant without a daily limit: this statement decides. Otherwise no row,
  -- and the full path answers.
  select (select t.id from t) as tenant_id,
         coalesce((select t.auto_approve from t), false) as tenant_auto,
         (select t.allowed_site_ids from t) as allowed_site_ids
   where not exists (select 1 from t where t.status <> 'active' or t.max_bookings_per_day is not null)`;

// jsonb_populate_record leaves absent columns null, not their defaults: every NOT NULL column
// with a default that the caller's record may omit is set in the insert below (the language
// first, so the caller's record can name another).
const BOOKING = `
), cand as (
  -- Each site's first free bay in best-fit order (the scan stops at the first free one), then the
  -- best of those.
  select c.bay_id, c.site_id, w.start_time, w.end_time, gate.tenant_id, gate.tenant_auto,
         coalesce(o.settings -> 'booking' -> 'autoApprove' = 'true'::jsonb, false) as org_auto
    from gate
    cross join unnest($3::uuid[], $4::timestamptz[], $5::timestamptz[]) as w(site_id, start_time, end_time)
    join organizations o on o.id = $1 and o.active and o.status = 'active' and o.config_version = $2
    join sites s on s.id = w.site_id and s.org_id = $1 and s.active and s.emergency_at is null
                and (gate.allowed_site_ids is null or s.id = any(gate.allowed_site_ids))
    cross join lateral (
      select b.id as bay_id, b.site_id, b.height_clearance_m, b.sort_key
        from bays b
       where b.site_id = w.site_id and b.active and b.height_clearance_m >= $6
         and ($7::numeric is null or b.length_m is null or b.length_m >= $7::numeric)
         and b.features @> $8::text[]
         and not exists (
           select 1 from bookings k
            where k.bay_id = b.id and k.status not in (${RELEASED})
              and tstzrange(k.start_time, k.end_time, '[)') && tstzrange(w.start_time, w.end_time, '[)'))
         and not exists (
           select 1 from blackouts x
            where x.site_id = w.site_id and (x.bay_id is null or x.bay_id = b.id)
              and x.start_time < w.end_time and x.end_time > w.start_time)
       order by b.height_clearance_m, b.sort_key, b.id
       limit 1) c
   order by c.height_clearance_m, c.sort_key, c.bay_id
   limit 1
), locked as (
  select cand.*, pg_advisory_xact_lock(hashtextextended(cand.bay_id::text, floor(extract(epoch from cand.start_time) / 86400)::bigint))::text as lock
    from cand
), ins as (
  -- In FROM, so the record is built once ("(f(x)).*" would call f once per column).
  insert into bookings
  select r.*
    from locked l,
         jsonb_populate_record(null::bookings, jsonb_build_object('language', '${DEFAULT_LANGUAGE}') || $9::jsonb || jsonb_build_object(
           'site_id', l.site_id, 'bay_id', l.bay_id, 'start_time', l.start_time, 'end_time', l.end_time,
           'window_start', l.start_time, 'window_end', l.end_time, 'version', 1, 'tenant_id', l.tenant_id,
           'status', case when l.tenant_auto or l.org_auto then 'approved' else 'pending' end,
           'approved_at', case when l.tenant_auto or l.org_auto then $12::timestamptz end)) r
  returning id, org_id, site_id, bay_id, start_time, end_time, status, tsr_number, tenant_name, vehicle_type, tenant_id,
            status_reason, version, booking_type, vehicle_registration, tsr_url, updated_at`;

const PORTAL_AUDIT = `
), audit as (
  insert into audit_log (actor_role, action, resource_type, resource_id, org_id, site_id, details, ip, created_at)
  select 'public', 'booking.created', 'booking', ins.id::text, ins.org_id, ins.site_id,
         $10::jsonb || jsonb_build_object('tsr_number', ins.tsr_number, 'tenant_name', ins.tenant_name,
                                          'vehicle_type', ins.vehicle_type, 'status', ins.status, 'tenant_id', ins.tenant_id,
                                          'auto_approved', case when l.tenant_auto then 'tenant' when l.org_auto then 'organization' end),
         $11, $12::timestamptz
    from ins, locked l`;

const OUTBOX = `
), mail as (
  insert into mail_outbox (org_id, kind, recipients, payload, next_attempt_at, created_at)
  select ins.org_id, m.kind, m.recipients, $14::jsonb || coalesce(m.payload, '{}'::jsonb) || jsonb_build_object('bookingId', ins.id),
         $12::timestamptz, $12::timestamptz
    from ins, jsonb_to_recordset($13::jsonb) as m(kind text, recipients text[], only_if text, payload jsonb)
   where m.only_if is null or m.only_if = ins.status
), hooks as (
  -- The organization's webhook endpoints subscribed to booking.created (server/modules/webhooks:
  -- the same envelope as webhook-events.ts eventEnvelope/bookingPayload), one event id for all.
  insert into webhook_deliveries (org_id, kind, endpoint_id, event_type, event_id, url, body, max_attempts, next_attempt_at, created_at)
  select ins.org_id, 'webhook', e.id, 'booking.created', ev.id, e.url,
         jsonb_build_object('id', ev.id, 'type', 'booking.created', 'createdAt', ${ISO_UTC('$12::timestamptz')}, 'organizationId', ins.org_id,
           'data', jsonb_build_object('booking', jsonb_build_object(
             'id', ins.id, 'reference', ins.tsr_number, 'status', ins.status, 'statusReason', ins.status_reason, 'version', ins.version,
             'siteId', ins.site_id, 'siteName', s.name, 'bayId', ins.bay_id, 'bayName', b.name, 'tenantName', ins.tenant_name,
             'bookingType', ins.booking_type, 'vehicleType', ins.vehicle_type, 'vehicleRegistration', ins.vehicle_registration,
             'startTime', ${ISO_UTC('ins.start_time')}, 'endTime', ${ISO_UTC('ins.end_time')}, 'tsrUrl', ins.tsr_url,
             'updatedAt', ${ISO_UTC('ins.updated_at')})))::text,
         ${WEBHOOK_MAX_ATTEMPTS}, $12::timestamptz, $12::timestamptz
    from ins
    join webhook_endpoints e on e.org_id = ins.org_id and e.status = 'active' and 'booking.created' = any(e.events)
    join sites s on s.id = ins.site_id
    join bays b on b.id = ins.bay_id
    cross join (select gen_random_uuid() as id) ev
)`;

const RESULT = `
select ins.id, ins.site_id, ins.bay_id, b.name as bay_name, ins.start_time, ins.end_time, ins.status, ins.tenant_id
  from ins join bays b on b.id = ins.bay_id`;

// Nothing booked, and the reason is certain: the rules copy is current, the request links to no
// tenant with a policy of its own (no site restriction either), every site the slot is open at is
// open for bookings, and compatible bays exist there, so each one is busy or blacked out — exactly
// where the full path answers 'No Available Bay'. One row with full = true, and the caller refuses
// at once (a storm on a full slot costs one statement per request, issue 25). Any other empty
// outcome stays without a row: the full path answers it precisely.
const PORTAL_RESULT = `
select ins.id, ins.site_id, ins.bay_id, b.name as bay_name, ins.start_time, ins.end_time, ins.status, ins.tenant_id, false as full
  from ins join bays b on b.id = ins.bay_id
union all
select null, null, null, null, null, null, null, null, true
 where not exists (select 1 from ins)
   and exists (select 1 from gate where gate.allowed_site_ids is null)
   and exists (select 1 from organizations o where o.id = $1 and o.active and o.status = 'active' and o.config_version = $2)
   and not exists (
     select 1 from unnest($3::uuid[]) as w(site_id) join sites s on s.id = w.site_id
      where s.org_id <> $1 or not s.active or s.emergency_at is not null)
   and exists (
     select 1 from unnest($3::uuid[]) as w(site_id) join bays b on b.site_id = w.site_id
      where b.org_id = $1 and b.active and b.height_clearance_m >= $6
        and ($7::numeric is null or b.length_m is null or b.length_m >= $7::numeric)
        and b.features @> $8::text[])`;

/** One statement: best-fit free bay, narrow lock, booking, audit, outbox. See book-slot-fast.ts. */
export const BOOK_SLOT_SQL = PORTAL_GATE + BOOKING + PORTAL_AUDIT + OUTBOX + PORTAL_RESULT;

/** A live booking: one that still counts as the load's appointment (not released, not completed). */
const LIVE = statusListText(LIVE_BOOKING_STATUSES);

// A channel's booking (the SSC API): the tenant is the key's, not linked by e-mail; its policy is
// read here (blocked, or with a daily limit: no row, the full path answers). No row either when the
// idempotency key was already used (the full path replays or refuses) or when the tenant already
// has a live booking for this load at the site (and stop): the full path names it.
const CHANNEL_GATE = `
with gate as (
  select t.id as tenant_id, t.auto_approve as tenant_auto, t.allowed_site_ids
    from tenants t
   where t.org_id = $1 and t.id = $15::uuid and t.status = 'active' and t.max_bookings_per_day is null
     and ($19::text is null or not exists (select 1 from bookings k where k.org_id = $1 and k.idempotency_key = $19::text))
     and not exists (
       select 1 from bookings k left join ssc_appointments a on a.booking_id = k.id
        where k.org_id = $1 and k.status in (${LIVE}) and k.tenant_id = t.id and k.tsr_number = $17::text
          and k.site_id = any($3::uuid[]) and ($18::int is null or a.stop_sequence_number = $18::int))`;

// The audit row as writeAudit writes it for the channel's actor: its e-mail and role as given, else
// from the user's profile and membership (as writeAudit looks them up); created_at is the
// database's, like every audit row.
const CHANNEL_AUDIT = `
), audit as (
  insert into audit_log (actor_id, actor_email, actor_role, action, resource_type, resource_id, org_id, site_id, details, ip,
                         impersonator_id, impersonator_email)
  select ($16::jsonb ->> 'id')::uuid,
         coalesce($16::jsonb ->> 'email', (select u.email from users u where u.id = ($16::jsonb ->> 'id')::uuid)),
         coalesce($16::jsonb ->> 'role', (select u.platform_role from users u where u.id = ($16::jsonb ->> 'id')::uuid),
                  (select m.role from org_memberships m where m.user_id = ($16::jsonb ->> 'id')::uuid and m.active and m.org_id = ins.org_id
                    order by m.created_at limit 1), 'unknown'),
         'booking.created', 'booking', ins.id::text, ins.org_id, ins.site_id,
         jsonb_build_object('tsr_number', ins.tsr_number, 'tenant_name', ins.tenant_name, 'vehicle_type', ins.vehicle_type,
                            'status', ins.status, 'tenant_id', ins.tenant_id,
                            'auto_approved', case when l.tenant_auto then 'tenant' when l.org_auto then 'organization' end) || $10::jsonb,
         $11, ($16::jsonb ->> 'impersonator_id')::uuid, $16::jsonb ->> 'impersonator_email'
    from ins, locked l
), ssc as (
  -- The channel's own row (ssc_appointments), every column given by the caller.
  insert into ssc_appointments
  select r.*
    from ins, jsonb_populate_record(null::ssc_appointments, $20::jsonb || jsonb_build_object('booking_id', ins.id, 'org_id', ins.org_id)) r`;

export const BOOK_CHANNEL_SQL = CHANNEL_GATE + BOOKING + CHANNEL_AUDIT + OUTBOX + RESULT;
