import { parse } from 'csv-parse/sync';
import {
  TENANT_CSV_COLUMNS,
  TENANT_IMPORT_MAX_ROWS,
  tenantInputSchema,
  type TenantCsvColumn,
  type TenantImportError,
  type TenantValues,
} from '../../../domain/org-tenants';

// The tenant import's file: a header (the columns in any order; only `name` is required), then one
// tenant a line. Lists (contact_emails, email_domains) are separated by ';'. Each row is turned
// into the API's input and validated with the same schema as POST /tenants; every problem is
// reported with its line (the header is line 1) and column.

export type ParsedTenantRow = { line: number; values: TenantValues };
/** What a row claims (its name, domains, contact e-mails), as far as those cells are valid: checked for duplicates even when another cell is wrong. */
export type TenantRowKeys = { line: number; name: string | null; emailDomains: string[]; contactEmails: string[] };

const COLUMN_OF_FIELD: Record<string, TenantCsvColumn> = {
  name: 'name',
  contactEmails: 'contact_emails',
  phone: 'phone',
  emailDomains: 'email_domains',
  status: 'status',
  autoApprove: 'auto_approve',
  maxBookingsPerDay: 'max_bookings_per_day',
};

const TRUE_WORDS = ['true', 'yes', 'y', '1'];
const FALSE_WORDS = ['false', 'no', 'n', '0'];

const list = (cell: string | undefined) =>
  (cell ?? '')
    .split(';')
    .map((item) => item.trim())
    .filter(Boolean);

/** 'yes' → true, 'no' → false, blank → not given; anything else is left for the schema to refuse. */
function yesNo(cell: string | undefined): unknown {
  const word = (cell ?? '').trim().toLowerCase();
  if (word === '') return undefined;
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  return cell;
}

/** '12' → 12, blank → not given; anything else is left for the schema to refuse. */
function wholeNumber(cell: string | undefined): unknown {
  const text = (cell ?? '').trim();
  if (text === '') return undefined;
  return /^[+-]?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

/** A row's cells as the API's input for POST /tenants. */
function toInput(cells: Partial<Record<TenantCsvColumn, string>>): Record<string, unknown> {
  const status = (cells.status ?? '').trim().toLowerCase();
  return {
    name: cells.name ?? '',
    contactEmails: list(cells.contact_emails),
    phone: cells.phone ?? undefined,
    emailDomains: list(cells.email_domains),
    status: status === '' ? undefined : status,
    autoApprove: yesNo(cells.auto_approve),
    maxBookingsPerDay: wholeNumber(cells.max_bookings_per_day),
  };
}

type CsvRecord = { record: string[]; info: { lines: number } };

/** Parses and validates the file: the valid rows, and every problem found (the caller imports nothing unless there is none). */
export function parseTenantCsv(text: string): { rows: ParsedTenantRow[]; keys: TenantRowKeys[]; errors: TenantImportError[] } {
  let records: CsvRecord[];
  try {
    records = parse(text, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as unknown as CsvRecord[];
  } catch (error) {
    const e = error as { lines?: number; message?: string };
    return { rows: [], keys: [], errors: [{ row: e.lines ?? 1, column: null, message: `The file is not valid CSV: ${e.message ?? 'unreadable'}` }] };
  }
  const [header, ...data] = records;
  if (!header) return { rows: [], keys: [], errors: [{ row: 1, column: null, message: `The file is empty. Start it with the header: ${TENANT_CSV_COLUMNS.join(',')}` }] };

  const errors: TenantImportError[] = [];
  const columns = header.record.map((name) => name.trim().toLowerCase());
  columns.forEach((name, index) => {
    if (!(TENANT_CSV_COLUMNS as readonly string[]).includes(name)) {
      errors.push({ row: header.info.lines, column: name || `column ${index + 1}`, message: `Unknown column "${name}". The columns are: ${TENANT_CSV_COLUMNS.join(', ')}` });
    } else if (columns.indexOf(name) !== index) {
      errors.push({ row: header.info.lines, column: name, message: `Column "${name}" appears twice` });
    }
  });
  if (!columns.includes('name')) errors.push({ row: header.info.lines, column: 'name', message: 'The header has no "name" column' });
  if (errors.length) return { rows: [], keys: [], errors };
  if (data.length === 0) return { rows: [], keys: [], errors: [{ row: header.info.lines, column: null, message: 'The file has a header but no tenant rows' }] };
  if (data.length > TENANT_IMPORT_MAX_ROWS) {
    return { rows: [], keys: [], errors: [{ row: data[TENANT_IMPORT_MAX_ROWS]!.info.lines, column: null, message: `At most ${TENANT_IMPORT_MAX_ROWS} tenants per file: split the file` }] };
  }

  const rows: ParsedTenantRow[] = [];
  const keys: TenantRowKeys[] = [];
  for (const { record, info } of data) {
    if (record.length !== columns.length) {
      errors.push({ row: info.lines, column: null, message: `This row has ${record.length} cell${record.length === 1 ? '' : 's'}; the header has ${columns.length}` });
      continue;
    }
    const cells = Object.fromEntries(columns.map((name, i) => [name, record[i]])) as Partial<Record<TenantCsvColumn, string>>;
    const input = toInput(cells);
    const result = tenantInputSchema.safeParse(input);
    const shape = tenantInputSchema.shape;
    keys.push({
      line: info.lines,
      name: shape.name.safeParse(input.name).data ?? null,
      emailDomains: shape.emailDomains.safeParse(input.emailDomains).data ?? [],
      contactEmails: shape.contactEmails.safeParse(input.contactEmails).data ?? [],
    });
    if (!result.success) {
      for (const issue of result.error.issues) {
        const field = String(issue.path[0] ?? '');
        errors.push({ row: info.lines, column: COLUMN_OF_FIELD[field] ?? null, message: issue.message });
      }
      continue;
    }
    rows.push({ line: info.lines, values: result.data });
  }
  return { rows, keys, errors };
}
