import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { GateOverview } from '../../../../domain/gate';
import { bookingHref, siteTime } from '../utils/format';

type Bay = GateOverview['bays'][number];
type BayState = Bay['state'];

/** Colour AND words per state, so the board reads without colour too. */
export const BAY_STATE_STYLE: Record<BayState, { label: string; color: string }> = {
  available: { label: 'Available', color: 'green' },
  occupied: { label: 'Occupied', color: 'blue' },
  overstay: { label: 'Overstay', color: 'red' },
  blacked_out: { label: 'Blacked out', color: 'gray' },
  stopped: { label: 'Stopped', color: 'orange' },
};

function BayTile({ bay, timeZone }: { bay: Bay; timeZone: string }) {
  const style = BAY_STATE_STYLE[bay.state];
  const booking = bay.booking;
  return (
    <li
      data-bay={bay.name}
      data-state={bay.state}
      style={{
        listStyle: 'none',
        minWidth: 0,
        padding: '8px 10px',
        borderRadius: 8,
        border: `1px solid var(--mantine-color-${style.color}-4)`,
        borderLeft: `6px solid var(--mantine-color-${style.color}-7)`,
        background: `var(--mantine-color-${style.color}-0)`,
      }}
    >
      <div style={{ display: 'flex', justifyContent: 'space-between', gap: 6, alignItems: 'baseline' }}>
        <Text fw={700} size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
          {bay.name}
        </Text>
        <Text size="xs" fw={700} c="dark.7" tt="uppercase" style={{ whiteSpace: 'nowrap', display: 'flex', alignItems: 'center', gap: 4 }}>
          <span aria-hidden style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: `var(--mantine-color-${style.color}-7)` }} />
          <span data-field="state">{style.label}</span>
        </Text>
      </div>
      {booking ? (
        <div style={{ minWidth: 0 }}>
          {/* Wrapped, never cut: a TSR number or a tenant's name read in part is no use at the gate. */}
          <Anchor component={Link} to={bookingHref(booking.id)} size="xs" fw={600} c="dark.7" underline="always" style={{ display: 'block', overflowWrap: 'anywhere' }}>
            {booking.tsrNumber}
          </Anchor>
          <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
            {booking.vehicleRegistration} · {booking.tenantName}
          </Text>
          <Text size="xs" c="dark.4">
            until {siteTime(booking.endTime, timeZone)}
          </Text>
        </div>
      ) : (
        <Text size="xs" c="dark.4">
          {bay.state === 'available' ? 'Free now' : bay.state === 'blacked_out' ? 'Closed for now' : bay.state === 'stopped' ? 'Site stopped' : ''}
        </Text>
      )}
    </li>
  );
}

/** A tile per bay of the site, in the site's order. */
export function BayBoard({ bays, timeZone, labelledBy }: { bays: Bay[]; timeZone: string; labelledBy: string }) {
  if (bays.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        This site has no active bays.
      </Text>
    );
  }
  return (
    <ul
      aria-labelledby={labelledBy}
      data-testid="bay-board"
      style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))', gap: 8, margin: 0, padding: 0 }}
    >
      {bays.map((bay) => (
        <BayTile key={bay.id} bay={bay} timeZone={timeZone} />
      ))}
    </ul>
  );
}
