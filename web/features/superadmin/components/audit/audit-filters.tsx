import { Button, Group, Paper, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { isAuditFiltered, type AuditFilterOptions, type AuditQuery } from '../../../../../domain/audit-log';
import { DateField } from '../../../../components/ui/date-field';

// The audit list's filters: organization, actor (part of an e-mail, or a user id), action,
// resource type and a range of days. Each change goes to the address (the page resets to 1).

type Props = {
  query: AuditQuery;
  options: AuditFilterOptions | undefined;
  onChange: (changes: Record<string, string | null>) => void;
};

export function AuditFilters({ query, options, onChange }: Props) {
  const [actor, setActor] = useState(query.actor ?? '');
  const [debouncedActor] = useDebouncedValue(actor, 300);

  useEffect(() => {
    if ((debouncedActor.trim() || undefined) !== query.actor) onChange({ actor: debouncedActor.trim() || null });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the debounced text drives this
  }, [debouncedActor]);

  // The address changed from outside (back button, Clear filters): show it.
  useEffect(() => {
    if ((query.actor ?? '') !== actor.trim()) setActor(query.actor ?? '');
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the address drives this
  }, [query.actor]);

  const organizations = (options?.organizations ?? []).map((o) => ({ value: o.id, label: o.name }));
  // A filter from the address that the options do not (yet) list is still offered, so it shows.
  const withCurrent = (values: string[], current: string | undefined) => (current && !values.includes(current) ? [current, ...values] : values);

  return (
    <Paper withBorder p="md" radius="md">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label="Organization"
          placeholder="All organizations"
          data={organizations}
          value={query.orgId ?? null}
          onChange={(value) => onChange({ orgId: value })}
          searchable
          clearable
          nothingFoundMessage="No organization of that name"
          w={230}
        />
        <TextInput
          label="Actor"
          placeholder="E-mail or user id"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={actor}
          onChange={(event) => setActor(event.currentTarget.value)}
          w={230}
        />
        <Select
          label="Action"
          placeholder="Any action"
          data={withCurrent(options?.actions ?? [], query.action)}
          value={query.action ?? null}
          onChange={(value) => onChange({ action: value })}
          searchable
          clearable
          nothingFoundMessage="No such action recorded"
          w={230}
        />
        <Select
          label="Resource type"
          placeholder="Any type"
          data={withCurrent(options?.resourceTypes ?? [], query.resourceType)}
          value={query.resourceType ?? null}
          onChange={(value) => onChange({ resourceType: value })}
          searchable
          clearable
          w={180}
        />
        <DateField label="From" value={query.from ?? null} onChange={(d) => onChange({ from: d })} maxDate={query.to} w={160} />
        <DateField label="To" value={query.to ?? null} onChange={(d) => onChange({ to: d })} minDate={query.from} w={160} />
        {isAuditFiltered(query) ? (
          <Button
            variant="subtle"
            onClick={() => {
              setActor('');
              onChange({ orgId: null, actor: null, action: null, resourceType: null, from: null, to: null });
            }}
          >
            Clear filters
          </Button>
        ) : null}
      </Group>
    </Paper>
  );
}
