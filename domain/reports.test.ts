import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  CSV_BOM,
  csvField,
  groupedReportCsvQuerySchema,
  neutralizeFormula,
  PUNCTUALITY_COLUMNS,
  REPORT_MESSAGES,
  reportCsvFileName,
  reportQuerySchema,
  reportRangeDays,
  resolveReportRange,
  toCsv,
  UTILISATION_COLUMNS,
  VOLUME_COLUMNS,
  type PunctualityRow,
  type UtilisationBay,
} from './reports';

const messagesOf = (input: unknown) => {
  const result = reportQuerySchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

describe('report range presets', () => {
  it('resolves each preset from the site’s today', () => {
    expect(resolveReportRange('today', '2026-11-23')).toEqual({ from: '2026-11-23', to: '2026-11-23' });
    expect(resolveReportRange('last_7_days', '2026-11-23')).toEqual({ from: '2026-11-17', to: '2026-11-23' });
    expect(resolveReportRange('last_30_days', '2026-11-23')).toEqual({ from: '2026-10-25', to: '2026-11-23' });
    expect(resolveReportRange('this_month', '2026-11-23')).toEqual({ from: '2026-11-01', to: '2026-11-23' });
    expect(resolveReportRange('custom', '2026-11-23')).toBeNull();
    expect(reportRangeDays(resolveReportRange('last_30_days', '2026-03-10')!)).toBe(30);
    // Across a year's end and a leap day.
    expect(resolveReportRange('last_7_days', '2028-03-02')).toEqual({ from: '2028-02-25', to: '2028-03-02' });
  });
});

describe('report query', () => {
  it('takes a range of local dates and a site, or nothing', () => {
    expect(messagesOf({})).toEqual([]);
    expect(messagesOf({ from: '2026-01-01', to: '2026-01-01', siteId: 'x' })).toEqual([]);
    // 366 days (a leap year) is the most.
    expect(messagesOf({ from: '2028-01-01', to: '2028-12-31' })).toEqual([]);
  });

  it('refuses malformed dates, half a range, an end before the start and more than 366 days', () => {
    expect(messagesOf({ from: '2026-02-30', to: '2026-03-01' })).toEqual([REPORT_MESSAGES.fromInvalid]);
    expect(messagesOf({ from: '2026-02-01', to: '1/3/2026' })).toEqual([REPORT_MESSAGES.toInvalid]);
    expect(messagesOf({ from: '2026-02-01' })).toEqual([REPORT_MESSAGES.bothDates]);
    expect(messagesOf({ to: '2026-02-01' })).toEqual([REPORT_MESSAGES.bothDates]);
    expect(messagesOf({ from: '2026-02-02', to: '2026-02-01' })).toEqual([REPORT_MESSAGES.endBeforeStart]);
    expect(messagesOf({ from: '2026-01-01', to: '2027-01-02' })).toEqual([REPORT_MESSAGES.rangeTooLong]);
    expect(messagesOf({ from: '2026-01-01', to: '2027-01-01' })).toEqual([]);
  });

  it('lets a grouped report’s CSV name one grouping', () => {
    expect(groupedReportCsvQuerySchema.safeParse({ groupBy: 'tenant' }).success).toBe(true);
    expect(groupedReportCsvQuerySchema.safeParse({ groupBy: 'colour' }).success).toBe(false);
    expect(groupedReportCsvQuerySchema.safeParse({ from: '2026-02-02', to: '2026-02-01' }).success).toBe(false);
  });
});

describe('report CSV', () => {
  it('neutralizes cells a spreadsheet would run as a formula', () => {
    for (const text of ['=HYPERLINK("http://x")', '+1', '-2+3', '@SUM(A1)', '\tx', '\rx']) expect(neutralizeFormula(text)).toBe(`'${text}`);
    expect(neutralizeFormula('Acme = best')).toBe('Acme = best');
    expect(csvField('=1+2')).toBe("'=1+2");
    expect(csvField('-1,5')).toBe(`"'-1,5"`);
    expect(csvField('Say "hi"')).toBe('"Say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(12.5)).toBe('12.5');
  });

  it('writes the header and one line per row, and reads back as the same table', () => {
    const rows: UtilisationBay[] = [
      { bayId: 'b1', bayName: '=cmd|calc', isActive: true, siteId: 's', siteName: 'North, "Main"', openMinutes: 960, bookedMinutes: 480, occupiedMinutes: 30, bookedRate: 0.5, occupiedRate: 30 / 960 },
      { bayId: 'b2', bayName: 'B-2', isActive: true, siteId: 's', siteName: 'North', openMinutes: 0, bookedMinutes: 0, occupiedMinutes: 0, bookedRate: null, occupiedRate: null },
    ];
    const csv = toCsv(UTILISATION_COLUMNS, rows);
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
    const table = parse(csv, { bom: true }) as string[][];
    expect(table).toEqual([
      ['Site', 'Bay', 'Open hours', 'Booked hours', 'Occupied hours', 'Booked %', 'Occupied %'],
      ['North, "Main"', "'=cmd|calc", '16.00', '8.00', '0.50', '50.0', '3.1'],
      ['North', 'B-2', '0.00', '0.00', '0.00', '', ''],
    ]);
  });

  it('names every column of the grouped and daily tables', () => {
    const row: PunctualityRow = {
      dimension: 'tenant',
      key: 'name:-x',
      label: '-x',
      arrivals: 4,
      early: 1,
      onTime: 2,
      late: 1,
      earlyRate: 0.25,
      onTimeRate: 0.5,
      lateRate: 0.25,
      medianLateMinutes: 50,
      p90LateMinutes: 50,
      lateByBucket: [0, 1, 0, 0, 0],
    };
    const [header, line] = parse(toCsv(PUNCTUALITY_COLUMNS, [row]), { bom: true }) as string[][];
    expect(header).toEqual([
      'Group by', 'Group', 'Arrivals', 'Early', 'On time', 'Late', 'Early %', 'On time %', 'Late %', 'Median minutes late', 'P90 minutes late',
      'Late 31–45 min', 'Late 46–60 min', 'Late 61–90 min', 'Late 91–120 min', 'Late Over 120 min',
    ]);
    expect(line).toEqual(['Tenant', "'-x", '4', '1', '2', '1', '25.0', '50.0', '25.0', '50.0', '50.0', '0', '1', '0', '0', '0']);
    expect(VOLUME_COLUMNS.map((c) => c.header)).toEqual([
      'Date', 'Bookings', 'Deliveries', 'Pickups', 'Delivery and pickup', 'Portal', 'Admin', 'Gate (walk-in)', 'Carrier API', 'Other',
    ]);
    expect(reportCsvFileName('no-shows', { from: '2026-10-25', to: '2026-11-23' })).toBe('baywise-no-shows-2026-10-25-to-2026-11-23.csv');
  });
});
