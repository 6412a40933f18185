import { Anchor, Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconBuildingWarehouse, IconMail, IconMapPin, IconPhone, IconRulerMeasure } from '@tabler/icons-react';
import type { Weekday } from '../../../../domain/enums';
import type { Language } from '../../../../domain/languages';
import { useT } from '../../../i18n/index';
import { intlLocale } from '../../../i18n/locale';
import type { PublicSite } from '../api/types';
import { summarizeOperatingHours } from '../utils/operating-hours';

/** '4.0' / '4,6' in the language's number format (at least one decimal). */
function formatMetres(m: number, language: Language): string {
  return new Intl.NumberFormat(intlLocale(language), { minimumFractionDigits: 1, maximumFractionDigits: 3 }).format(m);
}

// 5 Jan 2026 is a Monday: the short weekday names in the language's locale.
const WEEKDAY_INDEX: Record<Weekday, number> = { mon: 0, tue: 1, wed: 2, thu: 3, fri: 4, sat: 5, sun: 6 };
function weekdayName(day: Weekday, language: Language): string {
  return new Intl.DateTimeFormat(intlLocale(language), { weekday: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2026, 0, 5 + WEEKDAY_INDEX[day], 12)));
}

/** One location: bays, clearance, address. */
export function SiteLocationCard({ site }: { site: PublicSite }) {
  const { t, language } = useT('portal');
  return (
    <Card withBorder radius="md" padding="md">
      <Group gap="xs" mb={6} wrap="nowrap">
        <IconBuildingWarehouse size={20} aria-hidden color="var(--mantine-primary-color-filled)" />
        <Title order={3} size="h5">
          {site.name}
        </Title>
      </Group>
      <Stack gap={6}>
        <Group gap="xs">
          <Badge variant="light" tt="none">
            {t('site.bays', { count: site.bayCount })}
          </Badge>
          {site.maxClearanceM !== null ? (
            <Badge variant="light" color="gray" tt="none" leftSection={<IconRulerMeasure size={12} aria-hidden />}>
              {t('site.maxHeight', { height: formatMetres(site.maxClearanceM, language) })}
            </Badge>
          ) : null}
        </Group>
        {site.address ? (
          <Group gap={6} wrap="nowrap" align="flex-start">
            <IconMapPin size={16} aria-hidden style={{ marginTop: 2, flexShrink: 0 }} />
            <Text size="sm">{site.address}</Text>
          </Group>
        ) : null}
        <Text size="xs" c="dimmed">
          {t('site.timeZone', { timeZone: site.timeZone })}
        </Text>
      </Stack>
    </Card>
  );
}

/** A site's opening hours, consecutive days with the same hours folded. */
export function SiteHoursTable({ site }: { site: PublicSite }) {
  const { t, language } = useT('portal');
  const rows = summarizeOperatingHours(site.operatingHours);
  return (
    <Table withRowBorders={false} verticalSpacing={2} horizontalSpacing={0} fz="sm">
      <caption style={{ textAlign: 'left', fontWeight: 600, paddingBottom: 4, captionSide: 'top' }}>{site.name}</caption>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.days}>
            <Table.Th scope="row" fw={500} w="45%">
              {r.from === r.to ? weekdayName(r.from, language) : `${weekdayName(r.from, language)}-${weekdayName(r.to, language)}`}
            </Table.Th>
            <Table.Td c={r.isClosed ? 'dimmed' : undefined}>{r.isClosed ? t('site.closed') : r.hours}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Who to call or write to about a site's bookings. */
export function SiteContact({ site }: { site: PublicSite }) {
  if (!site.contactPhone && !site.contactEmail) return null;
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600}>
        {site.name}
      </Text>
      {site.contactPhone ? (
        <Group gap={6} wrap="nowrap">
          <IconPhone size={16} aria-hidden />
          <Anchor size="sm" href={`tel:${site.contactPhone.replace(/\s+/g, '')}`}>
            {site.contactPhone}
          </Anchor>
        </Group>
      ) : null}
      {site.contactEmail ? (
        <Group gap={6} wrap="nowrap">
          <IconMail size={16} aria-hidden />
          <Anchor size="sm" href={`mailto:${site.contactEmail}`}>
            {site.contactEmail}
          </Anchor>
        </Group>
      ) : null}
    </Stack>
  );
}
