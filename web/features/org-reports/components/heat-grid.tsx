import { Group, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useState, type CSSProperties, type MouseEvent } from 'react';
import { HEAT_CLOSED, HEAT_STEPS, HEAT_ZERO, heatStep, heatTextColour } from '../utils/report-colours';
import './heat-grid.css';

export type HeatAxisItem = {
  key: string;
  /** What the header shows (may be short, or empty to leave the column unlabelled). */
  label: string;
  /** The full name, for screen readers and the hover value. */
  full: string;
};

export type HeatCell = {
  value: number;
  /** Nothing could happen here (a closed day): hatched, not coloured. */
  isClosed?: boolean;
  /** The figures in words, shown on hover and read by screen readers. */
  description: string;
  /** Text written in the cell (the volume grid shows its counts). */
  text?: string;
};

type HeatGridProps = {
  /** The table's name (its caption for screen readers). */
  caption: string;
  /** The rows' kind, for the corner header ("Bay", "Weekday"). */
  rowHeader: string;
  rows: HeatAxisItem[];
  columns: HeatAxisItem[];
  cell: (rowKey: string, columnKey: string) => HeatCell;
  /** The top of the scale (1 for shares). */
  max: number;
  /** A legend step's bounds as text. */
  formatBound: (value: number) => string;
  /** The narrowest a cell may get (the grid then scrolls sideways) and the widest it may grow to fill the card. */
  minCellWidth?: number;
  maxCellWidth?: number;
  cellHeight?: number;
  withClosedInLegend?: boolean;
  testId?: string;
};

/** A row's or column's name: what fits on screen, the full name for screen readers. */
function AxisName({ item }: { item: HeatAxisItem }) {
  if (item.label === item.full) return <>{item.label}</>;
  return (
    <>
      <span aria-hidden>{item.label}</span>
      <VisuallyHidden>{item.full}</VisuallyHidden>
    </>
  );
}

function background(cell: HeatCell, max: number): { style: CSSProperties; isZero: boolean } {
  if (cell.isClosed) return { style: { background: HEAT_CLOSED }, isZero: false };
  const step = heatStep(cell.value, max);
  if (step < 0) return { style: { background: HEAT_ZERO, color: '#1a1b1e' }, isZero: true };
  return { style: { background: HEAT_STEPS[step], color: heatTextColour(step) }, isZero: false };
}

/**
 * A heat map drawn as a table (Mantine's Heatmap is a calendar, not rows × columns): a darker cell
 * is a higher figure; hovering a cell shows its figures, and each cell carries them as text.
 */
export function HeatGrid({ caption, rowHeader, rows, columns, cell, max, formatBound, minCellWidth = 18, maxCellWidth = 48, cellHeight = 22, withClosedInLegend, testId }: HeatGridProps) {
  const [hovered, setHovered] = useState<string | null>(null);
  const onMouseOver = (event: MouseEvent<HTMLTableElement>) => {
    const target = (event.target as HTMLElement).closest<HTMLElement>('[data-description]');
    setHovered(target?.dataset.description ?? null);
  };
  const steps = HEAT_STEPS.map((colour, i) => ({
    colour,
    label: `${formatBound((max * i) / HEAT_STEPS.length)}–${formatBound((max * (i + 1)) / HEAT_STEPS.length)}`,
  }));

  // The row names' column is as wide as the longest name; the cells share the rest of the card.
  const headWidth = Math.min(200, 16 + 7.5 * Math.max(3, ...rows.map((r) => r.label.length)));
  const spacing = 2 * (columns.length + 2);
  const tableStyle = {
    '--bw-heat-cell-h': `${cellHeight}px`,
    minWidth: headWidth + columns.length * minCellWidth + spacing,
    maxWidth: headWidth + columns.length * maxCellWidth + spacing,
  } as CSSProperties;

  return (
    <div>
      <div className="bw-heat" tabIndex={0} role="region" aria-label={`${caption} (table, scrolls sideways)`} data-testid={testId}>
        <Tooltip.Floating label={hovered ?? ''} disabled={!hovered} multiline maw={320}>
          <table
            className="bw-heat__table"
            style={tableStyle}
            onMouseOver={onMouseOver}
            onMouseLeave={() => setHovered(null)}
          >
            <VisuallyHidden component="caption">{caption}</VisuallyHidden>
            <colgroup>
              <col style={{ width: headWidth }} />
              {columns.map((column) => (
                <col key={column.key} />
              ))}
            </colgroup>
            <thead>
              <tr>
                <th scope="col" className="bw-heat__row-head">
                  <VisuallyHidden>{rowHeader}</VisuallyHidden>
                </th>
                {columns.map((column) => (
                  <th key={column.key} scope="col" className="bw-heat__col-head">
                    <AxisName item={column} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key}>
                  <th scope="row" className="bw-heat__row-head" title={row.full}>
                    <AxisName item={row} />
                  </th>
                  {columns.map((column) => {
                    const value = cell(row.key, column.key);
                    const { style, isZero } = background(value, max);
                    return (
                      <td key={column.key} className="bw-heat__cell" style={style} data-zero={isZero || undefined} data-description={value.description}>
                        {value.text ? <span aria-hidden>{value.text}</span> : null}
                        <VisuallyHidden>{value.description}</VisuallyHidden>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </Tooltip.Floating>
      </div>
      <Group gap="sm" mt="xs" aria-label={`${caption}: legend`} role="group">
        <Group gap={4} wrap="nowrap">
          <span className="bw-heat__legend-swatch" style={{ background: HEAT_ZERO }} aria-hidden />
          <Text size="xs">None</Text>
        </Group>
        {steps.map((step) => (
          <Group key={step.colour} gap={4} wrap="nowrap">
            <span className="bw-heat__legend-swatch" style={{ background: step.colour }} aria-hidden />
            <Text size="xs">{step.label}</Text>
          </Group>
        ))}
        {withClosedInLegend ? (
          <Group gap={4} wrap="nowrap">
            <span className="bw-heat__legend-swatch" style={{ background: HEAT_CLOSED }} aria-hidden />
            <Text size="xs">Closed</Text>
          </Group>
        ) : null}
      </Group>
    </div>
  );
}
