import { sql } from 'drizzle-orm';
import { readOrgSettings } from '../../../domain/org-settings';
import { buildPlateIndex, canonicalPlate, matchPlate, normalisePlate, PLATE_DEDUP_WINDOW_MS, type PlateIndex } from '../../../domain/plate-match';
import {
  plateCandidateActionFor,
  type PlateCandidateDto,
  type PlateReadDto,
  type PlateReadList,
  type PlateReadResult,
  type PlateReadSource,
  type PlateReadStatus,
} from '../../../domain/plate-reads';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { AppError, conflict, notFound } from '../../plugins/errors';
import { writeAudit, type AuditActor } from '../../audit/write-audit';
import { addDays } from '../../../domain/day-notice';
import { todayIn, zonedTimeToUtc } from '../../../domain/slot-grid';
import { checkInAtGate, type GateActor } from '../gate/gate-actions';
import * as repo from './plate-reads.repo';

// Plate reads at a site: match a read against the site's expected and on-site vehicles, keep
// every read (matched or not) for the dockmaster, fold repeats of one plate within 60 s into one
// event, and check a confidently matched expected vehicle in when the organization asks for it.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const PLATE_READ_PAGE_SIZE = 20;

type Vehicle = repo.SiteVehicle;
type Matched = { status: 'matched' | 'ambiguous' | 'unmatched'; bookingId: string | null; candidates: PlateCandidateDto[]; best?: Vehicle };

function matchAgainst(index: PlateIndex<Vehicle>, plate: string, threshold: number): Matched {
  const match = matchPlate(plate, index, { threshold });
  const candidates = match.candidates.map(({ vehicle, score }) => ({
    bookingId: vehicle.bookingId,
    version: vehicle.version,
    tsrNumber: vehicle.tsrNumber,
    tenantName: vehicle.tenantName,
    vehicleRegistration: vehicle.vehicleRegistration,
    bayName: vehicle.bayName,
    startTime: vehicle.startTime.toISOString(),
    status: vehicle.status,
    score: Math.round(score * 10_000) / 10_000,
    action: plateCandidateActionFor(vehicle.status),
  }));
  if (match.confident) return { status: 'matched', bookingId: match.candidates[0]!.vehicle.bookingId, candidates, best: match.candidates[0]!.vehicle };
  if (match.candidates.some((c) => c.isMatch)) return { status: 'ambiguous', bookingId: null, candidates };
  return { status: 'unmatched', bookingId: null, candidates };
}

/**
 * The site's vehicles as a matching index, with the organization's threshold. Built per request:
 * one indexed query, and building plus matching takes ~0.4 ms for 500 vehicles (measured), so a
 * cache would only add staleness.
 */
async function siteMatcher(db: Db | Tx, orgId: string, siteId: string, now: Date) {
  const [vehicles, settings] = await Promise.all([repo.findSiteVehicles(db, { orgId, siteId }, now), repo.findOrgSettings(db, orgId)]);
  const numberPlates = readOrgSettings(settings).numberPlates;
  const index = buildPlateIndex(vehicles);
  return { numberPlates, match: (plate: string) => matchAgainst(index, plate, numberPlates.matchThreshold) };
}

function toDto(row: repo.PlateReadRow, candidates: PlateCandidateDto[]): PlateReadDto {
  return {
    id: row.id,
    plate: row.plate,
    raw: row.raw,
    source: row.source as PlateReadSource,
    confidence: row.confidence === null ? null : Number(row.confidence),
    camera: row.camera,
    capturedAt: row.capturedAt.toISOString(),
    status: row.status as PlateReadStatus,
    bookingId: row.bookingId,
    action: row.action,
    createdAt: row.createdAt.toISOString(),
    candidates,
  };
}

export type NewRead = {
  orgId: string;
  siteId: string;
  /** What was read, likeliest first (OCR may offer several); the first that matches confidently is kept. */
  reads: string[];
  source: PlateReadSource;
  confidence?: number | null;
  camera?: string | null;
  capturedAt?: Date;
  cameraTokenId?: string | null;
  actorId?: string | null;
};

/**
 * Records one read and answers how it matched. A read of the same plate (canonical form) at the
 * site less than 60 s after a stored one is a repeat: nothing is stored, the stored read is
 * answered with `repeat: true` (checked in the database, under a lock per site and plate, so it
 * holds across processes). With automatic check-in on, a confident unique match whose booking is
 * approved is checked in through the gate; a refusal is reported in `autoCheckIn`.
 */
export async function recordPlateRead(ctx: AppContext, input: NewRead, gate: Omit<GateActor, 'orgId' | 'siteId' | 'details'> & { details?: Record<string, unknown> }): Promise<PlateReadResult> {
  const now = ctx.clock.now();
  const { row, matched, repeat, autoCheckIn } = await ctx.database.db.transaction(async (tx) => {
    const matcher = await siteMatcher(tx, input.orgId, input.siteId, now);
    // The read kept: the first candidate that matches confidently, else the first.
    const results = input.reads.map((read) => ({ read, matched: matcher.match(read) }));
    const chosen = results.find((r) => r.matched.status === 'matched') ?? results[0]!;
    const plate = normalisePlate(chosen.read);
    const canonical = canonicalPlate(plate);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`plate-read:${input.siteId}:${canonical}`}))`);
    const recent = await repo.findReadsSince(tx, { orgId: input.orgId, siteId: input.siteId }, new Date(now.getTime() - PLATE_DEDUP_WINDOW_MS + 1));
    const first = recent.find((r) => canonicalPlate(r.plate) === canonical);
    if (first) return { row: first, matched: matcher.match(first.plate), repeat: true, autoCheckIn: false };
    const inserted = await repo.insertRead(tx, {
      orgId: input.orgId,
      siteId: input.siteId,
      plate,
      raw: chosen.read.slice(0, 100),
      confidence: input.confidence ?? null,
      camera: input.camera ?? null,
      source: input.source,
      capturedAt: input.capturedAt ?? now,
      status: chosen.matched.status,
      bookingId: chosen.matched.bookingId,
      cameraTokenId: input.cameraTokenId ?? null,
      actorId: input.actorId ?? null,
      createdAt: now,
    });
    const wantsCheckIn = matcher.numberPlates.autoCheckIn && chosen.matched.status === 'matched' && chosen.matched.best?.status === 'approved';
    return { row: inserted, matched: chosen.matched, repeat: false, autoCheckIn: wantsCheckIn };
  });

  if (!repeat) publishRead(ctx, row.id, input.orgId, input.siteId, 'created', now);
  let current = row;
  let candidates = matched.candidates;
  let outcome: PlateReadResult['autoCheckIn'] = null;
  if (autoCheckIn && matched.best) {
    const bookingId = matched.best.bookingId;
    try {
      const moved = await checkInAtGate(
        ctx,
        { ...gate, orgId: input.orgId, siteId: input.siteId, details: { ...gate.details, plate_read_id: row.id, plate: row.plate, automatic: true } },
        bookingId,
        matched.best.version,
      );
      current = await repo.updateRead(ctx.database.db, { orgId: input.orgId, siteId: input.siteId }, row.id, { action: 'checked_in' });
      // The candidate as it now is: checked in, at its new version (the screen offers nothing more at the gate).
      candidates = candidates.map((c) =>
        c.bookingId === bookingId ? { ...c, status: moved.status, version: moved.version, action: plateCandidateActionFor(moved.status) } : c,
      );
      outcome = { ok: true, bookingId };
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500) {
        outcome = { ok: false, bookingId, code: error.code, message: error.message };
      } else {
        // The read is stored; a fault of the check-in must not lose it (a camera would retry).
        ctx.log.error({ err: error, plateReadId: row.id, bookingId }, 'automatic check-in failed');
        outcome = { ok: false, bookingId, code: 'check_in_failed', message: 'The automatic check-in failed: check the vehicle in at the gate' };
      }
    }
  }
  const laterToday = matched.status === 'unmatched' ? await bookedLaterToday(ctx, input.orgId, input.siteId, row.plate, now) : null;
  return { ...toDto(current, candidates), repeat, autoCheckIn: outcome, laterToday };
}

/**
 * The site's booking of `plate` later today (site time) beyond the expected window, if one
 * matches (the organization's threshold, the best match; the earliest of equals): the gate says
 * "booked for 16:30 today" rather than "no vehicle expected".
 */
async function bookedLaterToday(ctx: AppContext, orgId: string, siteId: string, plate: string, now: Date): Promise<PlateReadResult['laterToday']> {
  const db = ctx.database.db;
  const site = { orgId, siteId };
  const [timeZone, settings] = await Promise.all([repo.findSiteTimeZone(db, site), repo.findOrgSettings(db, orgId)]);
  if (!timeZone) return null;
  const endOfToday = zonedTimeToUtc(addDays(todayIn(timeZone, now), 1), 0, timeZone);
  // Unmatched: nothing expected now matched, so any booking of the plate starting from now is a later one.
  const later = await repo.findLaterBookings(db, site, now, endOfToday);
  const best = matchPlate(plate, later, { threshold: readOrgSettings(settings).numberPlates.matchThreshold }).candidates.find((c) => c.isMatch);
  if (!best) return null;
  const { bookingId, tsrNumber, vehicleRegistration, bayName, startTime, status } = best.vehicle;
  return { bookingId, tsrNumber, vehicleRegistration, bayName, startTime: startTime.toISOString(), status };
}

/** Recent reads of the site (unmatched and ambiguous by default), newest first, with their candidates now. */
export async function listPlateReads(ctx: AppContext, orgId: string, siteId: string, status: string | undefined, page: number): Promise<PlateReadList> {
  const db = ctx.database.db;
  const { rows, total } = await repo.listReads(db, { orgId, siteId }, status, PLATE_READ_PAGE_SIZE, (page - 1) * PLATE_READ_PAGE_SIZE);
  const matcher = rows.length > 0 ? await siteMatcher(db, orgId, siteId, ctx.clock.now()) : null;
  return {
    items: rows.map((row) => toDto(row, matcher ? matcher.match(row.plate).candidates : [])),
    page,
    pageSize: PLATE_READ_PAGE_SIZE,
    total,
  };
}

type Decision = { orgId: string; siteId: string; readId: string; actor: AuditActor; ip?: string | null };

async function decide(ctx: AppContext, input: Decision, change: { status: 'resolved' | 'ignored'; bookingId?: string }): Promise<PlateReadDto> {
  if (!UUID.test(input.readId)) throw notFound('Plate read');
  const site = { orgId: input.orgId, siteId: input.siteId };
  const row = await ctx.database.db.transaction(async (tx) => {
    const read = await repo.findRead(tx, site, input.readId);
    if (!read || read.orgId !== input.orgId) throw notFound('Plate read');
    if (read.status !== 'unmatched' && read.status !== 'ambiguous') {
      throw conflict('plate_read_decided', `This read is already ${read.status}`, { status: read.status });
    }
    if (change.bookingId && !(await repo.findSiteBooking(tx, site, change.bookingId))) throw notFound('Booking');
    const updated = await repo.updateRead(tx, site, read.id, { status: change.status, ...(change.bookingId ? { bookingId: change.bookingId } : {}) });
    await writeAudit(tx, {
      actor: input.actor,
      action: change.status === 'resolved' ? 'plate_read.resolved' : 'plate_read.ignored',
      resourceType: 'plate_read',
      resourceId: read.id,
      orgId: input.orgId,
      siteId: input.siteId,
      details: { plate: read.plate, previous_status: read.status, ...(change.bookingId ? { booking_id: change.bookingId } : {}) },
      ip: input.ip ?? null,
    });
    return updated;
  });
  publishRead(ctx, row.id, input.orgId, input.siteId, change.status, ctx.clock.now());
  return toDto(row, []);
}

/** Tells the site's open screens that its reads changed (a new one, or one decided). */
function publishRead(ctx: AppContext, id: string, orgId: string, siteId: string, action: string, at: Date): void {
  ctx.realtime?.publish({ entity: 'plate_read', action, id, orgId, siteId, at: at.toISOString() });
}

/** Links an unmatched or ambiguous read to a booking of the site (status resolved). */
export function resolvePlateRead(ctx: AppContext, input: Decision, bookingId: string): Promise<PlateReadDto> {
  return decide(ctx, input, { status: 'resolved', bookingId });
}

/** Marks an unmatched or ambiguous read as not needing action (status ignored). */
export function ignorePlateRead(ctx: AppContext, input: Decision): Promise<PlateReadDto> {
  return decide(ctx, input, { status: 'ignored' });
}
