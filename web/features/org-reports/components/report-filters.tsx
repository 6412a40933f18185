import { Group, Input, Paper, SegmentedControl, Text, useMatches } from '@mantine/core';
import { useId } from '@mantine/hooks';
import { REPORT_RANGE_PRESET_LABELS, REPORT_RANGE_PRESETS, reportRangeDays, type ReportOptions, type ReportRangePreset } from '../../../../domain/reports';
import { DateField } from '../../../components/ui/date-field';
import { SelectField } from '../../../components/ui/select-field';
import type { ReportFilters as Filters } from '../hooks/use-report-filters';
import { formatRange } from '../utils/report-format';

const PRESET_OPTIONS = REPORT_RANGE_PRESETS.map((preset) => ({ value: preset, label: REPORT_RANGE_PRESET_LABELS[preset] }));

type ReportFiltersProps = { filters: Filters; options: ReportOptions | undefined };

/** The date range (a preset or two days) and the site the figures are for. */
export function ReportFilters({ filters, options }: ReportFiltersProps) {
  const rangeLabelId = useId();
  const { preset, rangeError, range } = filters;
  const sites = options?.sites ?? [];
  const siteOptions = [
    ...(options?.allSitesAllowed ? [{ value: '', label: 'All sites' }] : []),
    ...sites.map((site) => ({ value: site.id, label: site.name })),
  ];
  // Five presets side by side are wider than a phone: there they stack.
  const orientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', sm: 'horizontal' });
  const lockedSite = options?.lockedSiteId ? sites.find((s) => s.id === options.lockedSiteId) : undefined;

  return (
    <Paper withBorder p="md" radius="md" component="form" role="search" aria-label="Report filters" onSubmit={(event) => event.preventDefault()}>
      <Group align="flex-start" gap="md" wrap="wrap">
        <Input.Wrapper label="Date range" id={rangeLabelId} labelElement="div">
          <div>
            <SegmentedControl
              aria-labelledby={`${rangeLabelId}-label`}
              data={PRESET_OPTIONS}
              orientation={orientation}
              value={preset}
              onChange={(value) => filters.setPreset(value as ReportRangePreset)}
              disabled={!options}
            />
          </div>
        </Input.Wrapper>
        {preset === 'custom' ? (
          <Group gap="sm" align="flex-start" wrap="wrap">
            <DateField
              label="From"
              value={filters.customFrom || null}
              onChange={(date) => filters.setCustomRange({ from: date })}
              error={rangeError?.field === 'from' ? rangeError.message : undefined}
              w={170}
            />
            <DateField
              label="To"
              value={filters.customTo || null}
              onChange={(date) => filters.setCustomRange({ to: date })}
              error={rangeError?.field === 'to' ? rangeError.message : undefined}
              w={170}
            />
          </Group>
        ) : null}
        <SelectField
          label="Site"
          description={lockedSite ? 'The site you signed in at' : undefined}
          data={siteOptions.length ? siteOptions : [{ value: '', label: options ? 'No sites' : 'Loading sites…' }]}
          value={filters.siteId ?? ''}
          onChange={(event) => filters.setSite(event.currentTarget.value || null)}
          disabled={!options || !!lockedSite || siteOptions.length < 2}
          maw={260}
        />
      </Group>
      <Text size="sm" c="dimmed" mt="sm" aria-live="polite">
        {range
          ? `Site-local days ${formatRange({ ...range, days: reportRangeDays(range) })}`
          : rangeError
            ? 'Choose a valid range to see the figures.'
            : 'Loading…'}
      </Text>
    </Paper>
  );
}
