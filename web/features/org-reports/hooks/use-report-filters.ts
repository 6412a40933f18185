import {
  DEFAULT_REPORT_RANGE_PRESET,
  REPORT_DIMENSIONS,
  REPORT_KINDS,
  REPORT_MESSAGES,
  REPORT_RANGE_PRESETS,
  reportQuerySchema,
  resolveReportRange,
  type ReportDimension,
  type ReportKind,
  type ReportOptions,
  type ReportRange,
  type ReportRangePreset,
} from '../../../../domain/reports';
import { useListParams } from '../../../lib/use-list-params';
import type { ReportRequest } from '../api/paths';

// The reports' filters live in the address (shareable, the back button works):
//   ?range=<preset>            today | last_7_days | this_month | custom (absent: last 30 days)
//   &from=YYYY-MM-DD&to=…      the custom range's days
//   &site=<id>|all             one site or every site (absent: the server's default for the caller)
//   &report=<kind>             the report on screen (absent: bay utilisation)
//   &groupBy=<dimension>       the grouped reports' rows (absent: each report's first grouping)

/** The URL's value for "every site". */
export const ALL_SITES = 'all';

const isPreset = (value: string | null): value is ReportRangePreset => (REPORT_RANGE_PRESETS as readonly (string | null)[]).includes(value);
const isKind = (value: string | null): value is ReportKind => (REPORT_KINDS as readonly (string | null)[]).includes(value);
const isDimension = (value: string | null): value is ReportDimension => (REPORT_DIMENSIONS as readonly (string | null)[]).includes(value);

export type ReportFilters = {
  preset: ReportRangePreset;
  /** The custom range's days as typed (empty when not chosen yet). */
  customFrom: string;
  customTo: string;
  /** The site asked for: an id, or null for every site. Undefined until the options are known. */
  siteId: string | null | undefined;
  /** 'YYYY-MM-DD' today where the figures are dated (the chosen site's, else the organization's). */
  today: string | null;
  /** The range the figures cover, or null while a custom range is not a valid one. */
  range: ReportRange | null;
  /** Why the custom range cannot be asked for: the contract's message; nothing is queried meanwhile. */
  rangeError: { field: 'from' | 'to'; message: string } | null;
  /** What every report is asked for; null while it cannot be asked (no options yet, a bad range). */
  request: ReportRequest | null;
  report: ReportKind;
  groupBy: ReportDimension | null;
  setPreset: (preset: ReportRangePreset) => void;
  setCustomRange: (change: { from?: string | null; to?: string | null }) => void;
  setSite: (siteId: string | null) => void;
  setReport: (report: ReportKind) => void;
  setGroupBy: (dimension: ReportDimension) => void;
};

/** The site asked for: a dockmaster's own site, the address's choice, else the caller's default. */
function siteOf(param: string | null, options: ReportOptions): string | null {
  if (options.lockedSiteId) return options.lockedSiteId;
  if (param === ALL_SITES) return options.allSitesAllowed ? null : options.defaultSiteId;
  // An id the caller may not know (an old link) is asked as it is: the server answers why not.
  return param || options.defaultSiteId;
}

/** Checks a custom range with the contract's schema (the server checks the same). */
function checkCustom(from: string, to: string): ReportFilters['rangeError'] {
  if (!from || !to) return { field: from ? 'to' : 'from', message: REPORT_MESSAGES.bothDates };
  const parsed = reportQuerySchema.safeParse({ from, to });
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return { field: issue.path[0] === 'from' ? 'from' : 'to', message: issue.message };
}

export function useReportFilters(options: ReportOptions | undefined): ReportFilters {
  const { params, update } = useListParams();
  const rangeParam = params.get('range');
  const preset = isPreset(rangeParam) ? rangeParam : DEFAULT_REPORT_RANGE_PRESET;
  const customFrom = params.get('from') ?? '';
  const customTo = params.get('to') ?? '';
  const reportParam = params.get('report');
  const groupByParam = params.get('groupBy');

  const siteId = options ? siteOf(params.get('site'), options) : undefined;
  const today = options ? (options.sites.find((s) => s.id === siteId)?.today ?? options.today) : null;

  let range: ReportRange | null = null;
  let rangeError: ReportFilters['rangeError'] = null;
  if (preset === 'custom') {
    rangeError = checkCustom(customFrom, customTo);
    if (!rangeError) range = { from: customFrom, to: customTo };
  } else if (today) {
    range = resolveReportRange(preset, today);
  }

  const request = range && siteId !== undefined ? { ...range, siteId } : null;

  return {
    preset,
    customFrom,
    customTo,
    siteId,
    today,
    range,
    rangeError,
    request,
    report: isKind(reportParam) ? reportParam : 'utilisation',
    groupBy: isDimension(groupByParam) ? groupByParam : null,
    setPreset: (next) => {
      if (next === 'custom') {
        // Custom starts from the range on screen, so there is something to adjust.
        update({ range: 'custom', from: range?.from ?? customFrom, to: range?.to ?? customTo });
      } else {
        update({ range: next === DEFAULT_REPORT_RANGE_PRESET ? null : next, from: null, to: null });
      }
    },
    setCustomRange: (change) =>
      update({ range: 'custom', from: change.from === undefined ? customFrom : change.from, to: change.to === undefined ? customTo : change.to }),
    setSite: (next) => update({ site: next ?? ALL_SITES }),
    setReport: (next) => update({ report: next === 'utilisation' ? null : next }),
    setGroupBy: (next) => update({ groupBy: next }),
  };
}
