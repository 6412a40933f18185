import { Loader, SimpleGrid, Text } from '@mantine/core';
import { useBookingInfo } from '../api/get-booking-info';
import { SiteContact } from './site-info';
import { useT } from '../../../i18n/index';

/** Every site's booking phone and e-mail, from the live site data. */
export function HelpContacts() {
  const info = useBookingInfo();
  const { t } = useT('portal');
  if (info.isPending) return <Loader size="sm" />;
  if (info.isError) return <Text size="sm">{t('contacts.failed')}</Text>;
  const sites = info.data.organizations.flatMap((o) => o.sites.map((s) => ({ ...s, orgName: o.name })));
  if (sites.length === 0) return <Text size="sm">{t('contacts.none')}</Text>;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
      {sites.map((site) => (
        <SiteContact key={site.id} site={site} />
      ))}
    </SimpleGrid>
  );
}
