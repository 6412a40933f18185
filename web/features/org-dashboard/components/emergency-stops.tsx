import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertOctagon } from '@tabler/icons-react';
import type { DashboardEmergencyStop } from '../../../../domain/org-dashboard';
import { siteDay, siteTime } from './format';

type EmergencyStopsProps = { stops: DashboardEmergencyStop[] | undefined };

/** The sites stopped for an emergency now: which, since when (site time), by whom and why. Nothing when none is. */
export function EmergencyStops({ stops }: EmergencyStopsProps) {
  if (!stops || stops.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-label="Emergency stops">
      {stops.map((stop) => (
        <Alert
          key={stop.siteId}
          color="red.9"
          variant="filled"
          role="alert"
          icon={<IconAlertOctagon size={20} aria-hidden />}
          title={`Emergency stop at ${stop.siteName}`}
          data-testid="dashboard-emergency-stop"
          data-site={stop.siteName}
        >
          <Text size="sm">
            Stopped since {siteTime(stop.since, stop.timeZone)} on {siteDay(stop.since, stop.timeZone)} ({stop.timeZone}) by {stop.byEmail ?? 'a former member'}.
            {stop.reason ? ` Reason: ${stop.reason}.` : ''}
          </Text>
          <Text size="sm">Check-in and calls to bays are on hold and the portal takes no bookings here; hauliers due today were e-mailed. Resume it from the site&apos;s gate screen.</Text>
        </Alert>
      ))}
    </Stack>
  );
}
