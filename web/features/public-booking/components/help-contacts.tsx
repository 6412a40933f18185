import { Loader, SimpleGrid, Text } from '@mantine/core';
import { useBookingInfo } from '../api/get-booking-info';
import { SiteContact } from './site-info';

/** Every site's booking phone and e-mail, from the live site data. */
export function HelpContacts() {
  const info = useBookingInfo();
  if (info.isPending) return <Loader size="sm" />;
  if (info.isError) return <Text size="sm">Contact details could not be loaded. Please try again later.</Text>;
  const sites = info.data.organizations.flatMap((o) => o.sites.map((s) => ({ ...s, orgName: o.name })));
  if (sites.length === 0) return <Text size="sm">No sites are taking bookings at the moment.</Text>;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
      {sites.map((site) => (
        <SiteContact key={site.id} site={site} />
      ))}
    </SimpleGrid>
  );
}
