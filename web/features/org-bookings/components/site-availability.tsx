import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { AdminBookingSites } from '../../../../domain/org-bookings';
import { ApiError } from '../../../lib/api-client';
import { previewAdminBookingSites } from '../api/org-bookings-api';
import { formatSiteRange } from '../utils/booking-display';

// The admin form's availability per site (issue 22 item 5, decision 039). When the organization
// lets hauliers choose the site, the form shows where the booking could go at each site, as the
// portal's picker does; under best fit over all sites it shows nothing more than the chosen site's
// bay. The server answers the policy with the figures, so dock masters (who cannot read the
// settings) see the same form.

export type SiteTarget = {
  date: string;
  slot: string;
  expectedDurationMin: number;
  vehicleHeightM: number;
  vehicleLengthM?: number;
  overrideMinAdvance: boolean;
};

export type SiteAvailabilityState =
  | { kind: 'none' }
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; sites: AdminBookingSites['sites'] };

export function useSiteAvailability(orgId: string, target: SiteTarget | null): SiteAvailabilityState {
  const query = useQuery({
    queryKey: ['org', orgId, 'booking-preview-sites', target],
    queryFn: () => previewAdminBookingSites(orgId, target!),
    enabled: target !== null,
    retry: false,
    staleTime: 0,
  });
  if (!target) return { kind: 'none' };
  if (query.isPending) return { kind: 'loading' };
  if (query.isError) return { kind: 'error', message: query.error instanceof ApiError ? query.error.message : 'The sites could not be checked' };
  return query.data.hauliersChooseSite ? { kind: 'ready', sites: query.data.sites } : { kind: 'none' };
}

export function SiteAvailability({ state, siteId, onChoose }: { state: SiteAvailabilityState; siteId: string; onChoose: (siteId: string) => void }) {
  if (state.kind === 'none' || state.kind === 'loading') return null;
  return (
    <Card withBorder padding="sm" aria-labelledby="site-availability-title" data-testid="site-availability" component="section">
      <Text size="sm" fw={600} id="site-availability-title">
        Availability per site
      </Text>
      {state.kind === 'error' ? (
        <Text size="sm">{state.message}</Text>
      ) : (
        <Stack gap={6} mt={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {state.sites.map((s) => (
            <Group key={s.siteId} component="li" justify="space-between" gap="xs" wrap="nowrap" data-site={s.siteName}>
              <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                <Text span fw={600}>
                  {s.siteName}
                </Text>
                {': '}
                {s.bayName && s.startTime && s.endTime ? `bay ${s.bayName}, ${formatSiteRange(s.startTime, s.endTime, s.timeZone)}` : s.message}
              </Text>
              {s.bayName && s.siteId !== siteId ? (
                <Button size="compact-sm" variant="light" onClick={() => onChoose(s.siteId)} aria-label={`Book at ${s.siteName}`}>
                  Book here
                </Button>
              ) : s.siteId === siteId ? (
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  Chosen
                </Text>
              ) : null}
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}
