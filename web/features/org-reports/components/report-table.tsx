import { Button, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import type { ReportColumn } from '../../../../domain/reports';
import { cellText, isNumericCell } from '../utils/report-format';

/** Rows shown before "Show all": long tables (a year of days, every bay) stay scannable. */
export const TABLE_ROWS_SHOWN = 10;

type ReportTableProps<Row> = {
  /** The table's name: its caption. */
  caption: string;
  columns: ReadonlyArray<ReportColumn<Row>>;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  testId?: string;
};

/**
 * A report's table, with the columns its CSV is written with (domain/reports.ts) and the same
 * cells: what is downloaded is what is read here. The first rows show; "Show all" the rest.
 */
export function ReportTable<Row>({ caption, columns, rows, rowKey, testId }: ReportTableProps<Row>) {
  const [isExpanded, setExpanded] = useState(false);
  const shown = isExpanded ? rows : rows.slice(0, TABLE_ROWS_SHOWN);
  return (
    <div>
      <Table.ScrollContainer minWidth={Math.min(1200, columns.length * 110)} type="native" tabIndex={0} role="region" aria-label={`${caption} (table)`}>
        <Table striped highlightOnHover verticalSpacing={6} fz="sm" data-testid={testId}>
          {/* The card's title says what the table is; the caption names it for screen readers. */}
          <VisuallyHidden component="caption">{caption}</VisuallyHidden>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column, i) => (
                <Table.Th key={column.header} ta={i === 0 ? 'left' : 'right'} miw={i === 0 ? undefined : 88} style={{ whiteSpace: i === 0 ? 'nowrap' : undefined, verticalAlign: 'bottom' }}>
                  {column.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row) => (
              <Table.Tr key={rowKey(row)}>
                {columns.map((column, i) => {
                  const cell = column.value(row);
                  const isNumber = isNumericCell(cell);
                  return i === 0 ? (
                    <Table.Th key={column.header} scope="row" fw={600} style={{ whiteSpace: 'nowrap' }}>
                      {cellText(cell)}
                    </Table.Th>
                  ) : (
                    <Table.Td key={column.header} ta={isNumber ? 'right' : 'left'} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                      {cellText(cell)}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length > TABLE_ROWS_SHOWN ? (
        <Group justify="space-between" mt="xs">
          <Text size="sm" c="dimmed">
            {isExpanded ? `All ${rows.length} rows` : `${shown.length} of ${rows.length} rows`}
          </Text>
          <Button variant="subtle" size="compact-sm" onClick={() => setExpanded((v) => !v)} aria-expanded={isExpanded}>
            {isExpanded ? 'Show fewer' : `Show all ${rows.length} rows`}
          </Button>
        </Group>
      ) : null}
    </div>
  );
}
