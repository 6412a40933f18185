import { REPORT_DIMENSION_LABELS, type ReportColumn, type ReportDimension } from '../../../../domain/reports';
import { ChartSwitch } from './report-parts';

type GroupByControlProps = {
  dimensions: readonly ReportDimension[];
  value: ReportDimension;
  onChange: (dimension: ReportDimension) => void;
};

/** Which grouping the chart and table show (the CSV downloads the same one). */
export function GroupByControl({ dimensions, value, onChange }: GroupByControlProps) {
  return (
    <ChartSwitch label="Group by" data={dimensions.map((d) => ({ value: d, label: REPORT_DIMENSION_LABELS[d] }))} value={value} onChange={onChange} />
  );
}

/** The grouping asked for, if this report has it, else its first. */
export const groupingOf = (dimensions: readonly ReportDimension[], asked: ReportDimension | null): ReportDimension =>
  asked && dimensions.includes(asked) ? asked : dimensions[0]!;

/**
 * A grouped report's columns for one grouping on screen: the CSV's "Group by" column names the
 * same grouping on every row, so the table leaves it out and heads "Group" with its name instead.
 */
export function columnsFor<Row>(columns: ReadonlyArray<ReportColumn<Row>>, dimension: ReportDimension): Array<ReportColumn<Row>> {
  return columns.filter((c) => c.header !== 'Group by').map((c) => (c.header === 'Group' ? { ...c, header: REPORT_DIMENSION_LABELS[dimension] } : c));
}

/** The rows a chart draws: the first `limit` (the server sorts them, most first); the table has them all. */
export const CHART_ROWS = 12;
export function chartRows<Row>(rows: readonly Row[], limit = CHART_ROWS): { rows: Row[]; note: string | null } {
  return rows.length > limit ? { rows: rows.slice(0, limit), note: `The ${limit} largest of ${rows.length}; the table lists them all.` } : { rows: [...rows], note: null };
}

/** Height for a horizontal bar chart of `n` rows. */
export const barChartHeight = (n: number): number => Math.max(160, 48 + n * 36);
