import { ActionIcon, Button, Checkbox, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { DayHours, OperatingHours } from '../../../../../domain/constants';
import { WEEKDAYS, type Weekday } from '../../../../../domain/enums';
import { WEEKDAY_LONG_LABELS } from '../../../../../domain/org-sites';
import { formatTimeOfDay, parseTimeOfDay } from '../../../../../domain/slot-grid';

// A week of opening hours: each day closed, or open in one or more windows (a lunch break is two
// windows). Times are the site's own wall clock; a window closing at 00:00 closes at midnight.

const MAX_WINDOWS = 6;

export type HoursEditorProps = {
  value: OperatingHours;
  onChange: (day: Weekday, windows: DayHours) => void;
  /** Field errors keyed 'operatingHours.mon.0.open' (the shared schema's paths). */
  errors: Record<string, unknown>;
};

/** The window a new one follows: an hour after the last closes, four hours long, within the day. */
function nextWindow(windows: DayHours): { open: string; close: string } | null {
  if (windows.length === 0) return { open: '06:00', close: '22:00' };
  if (windows.length >= MAX_WINDOWS) return null;
  const lastClose = parseTimeOfDay(windows.at(-1)!.close);
  // '00:00' as a closing time is midnight: nothing can follow it.
  if (lastClose === null || lastClose === 0 || lastClose >= 23 * 60) return null;
  const open = Math.min(lastClose + 60, 23 * 60);
  return { open: formatTimeOfDay(open), close: formatTimeOfDay(Math.min(open + 240, 24 * 60)).replace('24:00', '00:00') };
}

const errorText = (value: unknown) => (typeof value === 'string' ? value : undefined);

export function HoursEditor({ value, onChange, errors }: HoursEditorProps) {
  return (
    <Table verticalSpacing="xs" aria-label="Opening hours" layout="fixed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={130}>Day</Table.Th>
          <Table.Th>Opening windows</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {WEEKDAYS.map((day) => {
          const windows = value[day] ?? [];
          const label = WEEKDAY_LONG_LABELS[day];
          const next = nextWindow(windows);
          const isClosed = windows.length === 0;
          const dayError = errorText(errors[`operatingHours.${day}`]);
          return (
            <Table.Tr key={day} data-day={day}>
              <Table.Td style={{ verticalAlign: 'top' }}>
                <Text fw={600} size="sm" mb={6}>
                  {label}
                </Text>
                <Checkbox
                  size="xs"
                  label="Closed"
                  aria-label={`${label} closed`}
                  checked={isClosed}
                  onChange={(event) => onChange(day, event.currentTarget.checked ? [] : [{ open: '06:00', close: '22:00' }])}
                />
              </Table.Td>
              <Table.Td>
                <Stack gap={6}>
                  {isClosed ? (
                    <Text size="sm" c="dimmed">
                      Closed all day
                    </Text>
                  ) : (
                    windows.map((window, i) => {
                      const name = `${label} window ${i + 1}`;
                      return (
                        <Group key={i} gap="xs" align="flex-start" wrap="nowrap">
                          <TextInput
                            type="time"
                            aria-label={`${name} opens`}
                            value={window.open}
                            onChange={(event) => onChange(day, windows.map((w, j) => (j === i ? { ...w, open: event.currentTarget.value } : w)))}
                            error={errorText(errors[`operatingHours.${day}.${i}.open`])}
                            w={150}
                          />
                          <Text size="sm" pt={6} aria-hidden>
                            to
                          </Text>
                          <TextInput
                            type="time"
                            aria-label={`${name} closes`}
                            value={window.close}
                            onChange={(event) => onChange(day, windows.map((w, j) => (j === i ? { ...w, close: event.currentTarget.value } : w)))}
                            error={errorText(errors[`operatingHours.${day}.${i}.close`])}
                            w={150}
                          />
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            mt={4}
                            aria-label={`Remove ${name}`}
                            onClick={() => onChange(day, windows.filter((_, j) => j !== i))}
                          >
                            <IconTrash size={16} aria-hidden />
                          </ActionIcon>
                        </Group>
                      );
                    })
                  )}
                  {dayError ? (
                    <Text size="xs" c="red" role="alert">
                      {dayError}
                    </Text>
                  ) : null}
                  {!isClosed ? (
                    <Group>
                      <Button
                        variant="subtle"
                        size="compact-sm"
                        leftSection={<IconPlus size={14} aria-hidden />}
                        disabled={!next}
                        aria-label={`Add an opening window on ${label}`}
                        onClick={() => next && onChange(day, [...windows, next])}
                      >
                        Add window
                      </Button>
                    </Group>
                  ) : null}
                </Stack>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
