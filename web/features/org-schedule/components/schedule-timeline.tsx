import { Text } from '@mantine/core';
import { useRef, useState, type CSSProperties, type PointerEvent as ReactPointerEvent } from 'react';
import { formatDay } from '../../../../domain/day-notice';
import type { Schedule, ScheduleBay, ScheduleBooking } from '../../../../domain/org-schedule';
import { formatTimeOfDay, localDateOf, localTimeOf } from '../../../../domain/slot-grid';
import {
  dropTargetAt,
  fractionAt,
  hourMarks,
  nowFraction,
  place,
  targetInstant,
  type DropTarget,
  type Placement,
  type ScheduleView,
  type Timeline,
} from '../utils/timeline';
import { isReschedulable, SCHEDULE_STATUS_COLORS, statusLabel } from '../utils/schedule-status';
import './schedule-timeline.css';

// Bays down, time across, in the site's time zone. Each booking is a button (Enter opens its
// details); pending and approved ones can also be dragged with a mouse, pen or finger to another
// time and/or bay: the drop snaps to the site's slot interval and is handed to `onMove`, which
// asks the server. Until it answers the booking shows where it was dropped; a refusal puts it back.

/** A move the server is deciding: the booking is drawn at its new place meanwhile. */
export type PendingMove = { bookingId: string; bayId: string; startTime: string; endTime: string };
export type MoveRequest = { booking: ScheduleBooking; bay: ScheduleBay; target: DropTarget };

type Props = {
  schedule: Schedule;
  timeline: Timeline;
  view: ScheduleView;
  now: Date;
  today: string;
  pendingMove: PendingMove | null;
  onOpen: (booking: ScheduleBooking) => void;
  onMove: (move: MoveRequest) => void;
};

type Drag = {
  booking: ScheduleBooking;
  pointerId: number;
  startX: number;
  startY: number;
  /** Fraction of the track between the booking's start and the pointer. */
  grabOffset: number;
  durationMin: number;
  isDragging: boolean;
  target: DropTarget | null;
  bayIndex: number;
};

const DRAG_THRESHOLD_PX = 4;
const pct = (fraction: number) => `${(fraction * 100).toFixed(4)}%`;
const colorVars = (color: string) =>
  ({
    '--bw-c1': `var(--mantine-color-${color}-1)`,
    '--bw-c2': `var(--mantine-color-${color}-2)`,
    '--bw-c6': `var(--mantine-color-${color}-6)`,
  }) as CSSProperties;

const durationOf = (b: { startTime: string; endTime: string }) => Math.round((Date.parse(b.endTime) - Date.parse(b.startTime)) / 60_000);

/** 'Acme Freight, 09:00–10:00 Tue 24 Nov, bay N-01, Approved' — what a screen reader hears. */
export function bookingLabel(b: ScheduleBooking, bayName: string, timeZone: string): string {
  const start = new Date(b.startTime);
  const end = new Date(b.endTime);
  return `${b.tenantName}, ${localTimeOf(start, timeZone)}–${localTimeOf(end, timeZone)} ${formatDay(localDateOf(start, timeZone))}, bay ${bayName}, ${statusLabel(b.status)}`;
}

export function ScheduleTimeline({ schedule, timeline, view, now, today, pendingMove, onOpen, onMove }: Props) {
  const { bays, bookings, blackouts } = schedule;
  const tz = timeline.timeZone;
  const trackRef = useRef<HTMLDivElement>(null);
  const lanesRef = useRef<HTMLDivElement>(null);
  const dragRef = useRef<Drag | null>(null);
  const suppressClick = useRef(false);
  const [drag, setDrag] = useState<Drag | null>(null);

  const bayIndex = new Map(bays.map((b, i) => [b.id, i]));
  const spanMin = timeline.window.endMin - timeline.window.startMin;
  const hoursShown = spanMin / 60;
  // A day at about 72 px an hour (scrolls sideways on narrow screens); a week fits a laptop screen.
  const minWidth = view === 'day' ? Math.max(720, hoursShown * 72) : timeline.days.length * 130;
  const tickEvery = view === 'day' ? 1 : hoursShown > 12 ? 6 : 3;
  const nowAt = nowFraction(timeline, now);

  /** Track fraction and bay under a pointer. */
  const pointerPlace = (clientX: number, clientY: number) => {
    const track = trackRef.current?.getBoundingClientRect();
    const lanes = Array.from(lanesRef.current?.children ?? []).map((lane) => lane.getBoundingClientRect());
    if (!track || lanes.length === 0 || track.width === 0) return null;
    const fraction = (clientX - track.left) / track.width;
    // Lanes differ in height (a bay with many features wraps): the lane under the pointer, or the nearest end.
    const found = lanes.findIndex((r) => clientY >= r.top && clientY < r.bottom);
    const index = found >= 0 ? found : clientY < lanes[0]!.top ? 0 : lanes.length - 1;
    return { fraction, index };
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLButtonElement>, booking: ScheduleBooking, piece: Placement) => {
    if (!isReschedulable(booking.status) || event.button !== 0 || pendingMove) return;
    const at = pointerPlace(event.clientX, event.clientY);
    if (!at) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    const pieceStart = piece.clippedStart ? null : piece.left;
    dragRef.current = {
      booking,
      pointerId: event.pointerId,
      startX: event.clientX,
      startY: event.clientY,
      grabOffset: pieceStart === null ? 0 : at.fraction - pieceStart,
      durationMin: durationOf(booking),
      isDragging: false,
      target: null,
      bayIndex: bayIndex.get(booking.bayId) ?? 0,
    };
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLButtonElement>) => {
    const current = dragRef.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const moved = Math.hypot(event.clientX - current.startX, event.clientY - current.startY);
    if (!current.isDragging && moved < DRAG_THRESHOLD_PX) return;
    const at = pointerPlace(event.clientX, event.clientY);
    if (!at) return;
    const next = { ...current, isDragging: true, target: dropTargetAt(timeline, at.fraction - current.grabOffset, current.durationMin), bayIndex: at.index };
    dragRef.current = next;
    setDrag(next);
  };

  const endDrag = (event: ReactPointerEvent<HTMLButtonElement>, isDrop: boolean) => {
    const current = dragRef.current;
    if (!current || current.pointerId !== event.pointerId) return;
    dragRef.current = null;
    setDrag(null);
    if (!current.isDragging) return;
    // The click that ends a drag is not a click; a later Enter or click is (the block may have
    // moved to another lane, so no click may come to clear the flag).
    suppressClick.current = true;
    window.setTimeout(() => (suppressClick.current = false), 0);
    if (!isDrop || !current.target) return;
    const bay = bays[current.bayIndex]!;
    const start = targetInstant(timeline, current.target).toISOString();
    const isSamePlace = bay.id === current.booking.bayId && start === new Date(current.booking.startTime).toISOString();
    if (!isSamePlace) onMove({ booking: current.booking, bay, target: current.target });
  };

  const ghost = (() => {
    if (!drag?.isDragging || !drag.target) return null;
    const start = targetInstant(timeline, drag.target);
    const end = new Date(start.getTime() + drag.durationMin * 60_000);
    return { bayIndex: drag.bayIndex, pieces: place(timeline, start.toISOString(), end.toISOString()), label: `${formatDay(drag.target.date)} ${drag.target.slot} · ${bays[drag.bayIndex]?.name}` };
  })();

  return (
    <div
      className={`bw-schedule${drag?.isDragging ? ' bw-schedule--dragging' : ''}`}
      role="region"
      aria-label={`Schedule of ${schedule.site.name}`}
      tabIndex={0}
    >
      <div className="bw-schedule__inner" style={{ minWidth: `calc(var(--bay-col) + ${minWidth}px)` }}>
        {/* Closed hours, day and hour lines, site-wide blackouts and now: behind and across every lane. */}
        <div className="bw-schedule__overlay" aria-hidden>
          {timeline.days.map((day, i) => (
            <ClosedHours key={day.date} timeline={timeline} dayIndex={i} />
          ))}
          {timeline.days.flatMap((day, i) =>
            hourMarks(timeline, tickEvery).map((m) => (
              <div
                key={`${day.date}-${m}`}
                className={`bw-schedule__gridline${m === timeline.window.startMin ? ' bw-schedule__gridline--day' : ''}`}
                style={{ left: pct(fractionAt(timeline, i, m)) }}
              />
            )),
          )}
          {nowAt !== null ? <div className="bw-schedule__now" style={{ left: pct(nowAt) }} title={`Now, ${localTimeOf(now, tz)}`} /> : null}
        </div>

        <div className="bw-schedule__row bw-schedule__head">
          <div className="bw-schedule__bay">
            <Text size="sm" fw={600}>
              Bay
            </Text>
          </div>
          <div className="bw-schedule__track">
            {view === 'week'
              ? timeline.days.map((day, i) => (
                  <span
                    key={day.date}
                    className={`bw-schedule__dayhead${day.date === today ? ' bw-schedule__dayhead--today' : ''}`}
                    style={{ left: pct(i / timeline.days.length) }}
                  >
                    {formatDay(day.date)}
                    {day.open ? '' : ' · closed'}
                  </span>
                ))
              : null}
            {timeline.days.flatMap((day, i) =>
              hourMarks(timeline, tickEvery).map((m) => (
                <span key={`${day.date}-${m}`} className="bw-schedule__tick" style={{ left: pct(fractionAt(timeline, i, m)) }} aria-hidden>
                  {view === 'day' || m !== timeline.window.startMin ? formatTimeOfDay(m) : ''}
                </span>
              )),
            )}
          </div>
        </div>

        <div ref={lanesRef}>
          {bays.map((bay, laneIndex) => (
            <div key={bay.id} className="bw-schedule__row" role="group" aria-label={`Bay ${bay.name}`}>
              <div className="bw-schedule__bay">
                <Text size="sm" fw={600}>
                  {bay.name}
                </Text>
                <Text size="xs" c="gray.7">
                  {bay.heightClearanceM.toFixed(1)} m{bay.features.length ? ` · ${bay.features.join(', ')}` : ''}
                </Text>
              </div>
              <div className="bw-schedule__track" ref={laneIndex === 0 ? trackRef : undefined}>
                {blackouts
                  .filter((b) => b.bayId === null || b.bayId === bay.id)
                  .flatMap((b) =>
                    place(timeline, b.start, b.end).map((piece) => (
                      <div
                        key={`${b.id}-${piece.dayIndex}`}
                        className={`bw-schedule__blackout${b.bayId === null ? ' bw-schedule__blackout--site' : ''}`}
                        style={{ left: pct(piece.left), width: pct(piece.width) }}
                        title={`Blackout ${localTimeOf(new Date(b.start), tz)}–${localTimeOf(new Date(b.end), tz)}${b.reason ? `: ${b.reason}` : ''}`}
                      >
                        {laneIndex === 0 || b.bayId !== null ? `Blackout${b.reason ? ` · ${b.reason}` : ''}` : ''}
                      </div>
                    )),
                  )}
                {bookings.map((b) => {
                  const isPending = pendingMove?.bookingId === b.id;
                  const shown = isPending ? { ...b, bayId: pendingMove.bayId, startTime: pendingMove.startTime, endTime: pendingMove.endTime } : b;
                  if (shown.bayId !== bay.id) return null;
                  const draggable = isReschedulable(b.status) && !pendingMove;
                  const label = bookingLabel(shown, bay.name, tz);
                  return place(timeline, shown.startTime, shown.endTime).map((piece) => (
                    <button
                      key={`${b.id}-${piece.dayIndex}`}
                      type="button"
                      className={[
                        'bw-schedule__booking',
                        draggable ? 'bw-schedule__booking--draggable' : '',
                        piece.clippedStart ? 'bw-schedule__booking--clipped-start' : '',
                        piece.clippedEnd ? 'bw-schedule__booking--clipped-end' : '',
                        drag?.isDragging && drag.booking.id === b.id ? 'bw-schedule__booking--moving' : '',
                        isPending ? 'bw-schedule__booking--pending-move' : '',
                      ].join(' ')}
                      style={{ left: pct(piece.left), width: pct(piece.width), ...colorVars(SCHEDULE_STATUS_COLORS[b.status]) }}
                      aria-label={label}
                      aria-haspopup="dialog"
                      aria-busy={isPending || undefined}
                      title={label}
                      data-booking-id={b.id}
                      data-status={b.status}
                      onPointerDown={(e) => onPointerDown(e, b, piece)}
                      onPointerMove={onPointerMove}
                      onPointerUp={(e) => endDrag(e, true)}
                      onPointerCancel={(e) => endDrag(e, false)}
                      onClick={() => {
                        if (suppressClick.current) {
                          suppressClick.current = false;
                          return;
                        }
                        onOpen(b);
                      }}
                    >
                      <span className="bw-schedule__text" style={{ fontWeight: 600 }}>
                        {b.tenantName}
                      </span>
                      {view === 'day' ? (
                        <span className="bw-schedule__text">
                          {localTimeOf(new Date(shown.startTime), tz)}–{localTimeOf(new Date(shown.endTime), tz)} · {b.tsrNumber}
                        </span>
                      ) : null}
                    </button>
                  ));
                })}
                {ghost && ghost.bayIndex === laneIndex
                  ? ghost.pieces.map((piece) => (
                      <div key={`ghost-${piece.dayIndex}`} className="bw-schedule__ghost" style={{ left: pct(piece.left), width: pct(piece.width) }} aria-hidden>
                        {ghost.label}
                      </div>
                    ))
                  : null}
              </div>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

/** The shaded hours of one day outside its opening hours (all of it when closed). */
function ClosedHours({ timeline, dayIndex }: { timeline: Timeline; dayIndex: number }) {
  const day = timeline.days[dayIndex]!;
  const { startMin, endMin } = timeline.window;
  const zones: Array<[number, number]> = day.open
    ? [
        [startMin, day.open.startMin],
        [day.open.endMin, endMin],
      ]
    : [[startMin, endMin]];
  return (
    <>
      {zones
        .filter(([a, b]) => b > a)
        .map(([a, b]) => (
          <div
            key={a}
            className="bw-schedule__closed"
            style={{ left: pct(fractionAt(timeline, dayIndex, a)), width: pct(fractionAt(timeline, dayIndex, b) - fractionAt(timeline, dayIndex, a)) }}
          />
        ))}
    </>
  );
}
