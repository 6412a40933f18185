import { Select, type SelectProps } from '@mantine/core';
import { useMemo } from 'react';

// The IANA time zones the browser knows, searchable by any part of the name ('sydney', 'new york')
// and labelled with their current offset from UTC.

let cachedZones: string[] | null = null;

function supportedZones(): string[] {
  if (cachedZones) return cachedZones;
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [];
  cachedZones = [...new Set(['UTC', ...zones])].sort((a, b) => a.localeCompare(b));
  return cachedZones;
}

function offsetOf(timeZone: string): string {
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'shortOffset' })
      .formatToParts(new Date())
      .find((p) => p.type === 'timeZoneName');
    return part?.value ?? '';
  } catch {
    return '';
  }
}

export type TimeZoneSelectProps = Omit<SelectProps, 'data' | 'searchable'>;

export function TimeZoneSelect({ value, ...rest }: TimeZoneSelectProps) {
  const data = useMemo(() => {
    const zones = supportedZones();
    // A zone saved under another spelling (an alias) stays choosable.
    const all = value && !zones.includes(value) ? [value, ...zones] : zones;
    return all.map((zone) => {
      const offset = offsetOf(zone);
      return { value: zone, label: `${zone.replace(/_/g, ' ')}${offset ? ` (${offset})` : ''}` };
    });
  }, [value]);
  return <Select {...rest} value={value} data={data} searchable maxDropdownHeight={280} nothingFoundMessage="No time zone matches" allowDeselect={false} />;
}
