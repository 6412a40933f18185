import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  AUDIT_CSV_COLUMNS,
  auditActorName,
  auditCsvLine,
  auditImpersonationNote,
  auditRoleLabel,
  auditQueryFromParams,
  auditResourceLabel,
  formatAuditDetail,
  auditRangeInstants,
  csvField,
  csvLine,
  describeAuditAction,
  isActorId,
  neutralizeFormula,
  orgAuditListQuerySchema,
  platformAuditListQuerySchema,
  type AuditEntry,
} from './audit-log';

describe('neutralizeFormula', () => {
  it('prefixes the cells a spreadsheet would run', () => {
    for (const cell of ['=1+1', '+SUM(A1)', '-2', '@cmd', '\tx', '\rx']) expect(neutralizeFormula(cell)).toBe(`'${cell}`);
  });
  it('leaves every other cell alone', () => {
    for (const cell of ['booking.created', 'a=b', ' =x', "'quoted", '', '{"a":1}']) expect(neutralizeFormula(cell)).toBe(cell);
  });
});

describe('csvField and csvLine', () => {
  it('quotes commas, quotes and line breaks, after neutralising', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('one\ntwo')).toBe('"one\ntwo"');
    expect(csvField('=A1,B1')).toBe(`"'=A1,B1"`);
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });
  it('round-trips through a CSV parser', () => {
    const cells = ['=cmd', 'a,"b"', 'x\r\ny', '', '@home'];
    expect(parse(csvLine(cells))).toEqual([["'=cmd", 'a,"b"', 'x\r\ny', '', "'@home"]]);
  });
});

describe('auditCsvLine', () => {
  const entry: AuditEntry = {
    id: 'e1',
    createdAt: '2026-11-23T00:00:00.000Z',
    orgId: 'o1',
    orgName: 'Acme, Inc',
    siteId: null,
    siteName: null,
    actorId: null,
    actorEmail: null,
    actorRole: 'public',
    impersonatorId: null,
    impersonatorEmail: null,
    action: 'booking.created',
    resourceType: 'booking',
    resourceId: 'b1',
    details: { tsr_number: '=TSR-1' },
  };
  it('writes the columns in order, with details as JSON', () => {
    const [row] = parse(auditCsvLine(entry)) as string[][];
    expect(row).toHaveLength(AUDIT_CSV_COLUMNS.length);
    expect(row).toEqual(['2026-11-23T00:00:00.000Z', 'Acme, Inc', 'o1', '', 'public', '', 'booking.created', 'booking', 'b1', '', '', '{"tsr_number":"=TSR-1"}']);
  });
  it('leaves details empty when there are none', () => {
    const [row] = parse(auditCsvLine({ ...entry, details: {} })) as string[][];
    expect(row!.at(-1)).toBe('');
  });
});

describe('auditRangeInstants', () => {
  it('covers whole days in the time zone, the last one included', () => {
    expect(auditRangeInstants({ from: '2026-11-21', to: '2026-11-22', tz: 'UTC' })).toEqual({
      since: new Date('2026-11-21T00:00:00Z'),
      before: new Date('2026-11-23T00:00:00Z'),
    });
    expect(auditRangeInstants({ from: '2026-11-21', to: '2026-11-22', tz: 'Australia/Sydney' })).toEqual({
      since: new Date('2026-11-20T13:00:00Z'),
      before: new Date('2026-11-22T13:00:00Z'),
    });
  });
  it('gives a 23-hour day on the spring-forward date', () => {
    const { since, before } = auditRangeInstants({ from: '2026-10-04', to: '2026-10-04', tz: 'Australia/Sydney' });
    expect(before!.getTime() - since!.getTime()).toBe(23 * 3_600_000);
  });
  it('leaves an open end open', () => {
    expect(auditRangeInstants({ tz: 'UTC' })).toEqual({ since: null, before: null });
  });
});

describe('query schemas', () => {
  it('defaults to page 1 of 20 in UTC', () => {
    expect(platformAuditListQuerySchema.parse({})).toEqual({ page: 1, pageSize: 20, tz: 'UTC' });
  });
  it('has no organization filter for an organization’s trail', () => {
    expect(orgAuditListQuerySchema.parse({ orgId: 'x' })).not.toHaveProperty('orgId');
  });
  it('refuses a range that ends before it starts', () => {
    const result = platformAuditListQuerySchema.safeParse({ from: '2026-11-02', to: '2026-11-01' });
    expect(result.error?.issues[0]?.message).toBe('The start date must be on or before the end date');
  });
});

describe('small helpers', () => {
  it('tells a user id from an e-mail', () => {
    expect(isActorId('0b8e5a4e-8f4c-4a51-9d43-5d1b5a0c1e2f')).toBe(true);
    expect(isActorId('admin@acme.test')).toBe(false);
  });
  it('describes an action in words', () => {
    expect(describeAuditAction('booking.checked_in')).toBe('Booking checked in');
    expect(describeAuditAction('site.emergency_stopped')).toBe('Site emergency stopped');
  });
});

describe('auditQueryFromParams', () => {
  const read = (qs: string, withOrganization = true, timeZone = 'Australia/Sydney') =>
    auditQueryFromParams(new URLSearchParams(qs), { withOrganization, timeZone });
  it('reads the filters with the API’s names, and page 1 of 20 by default', () => {
    expect(read('')).toEqual({ page: 1, pageSize: 20 });
    expect(read('actor=%20bob%20&action=bay.created&resourceType=bay&page=3&pageSize=50')).toEqual({
      actor: 'bob',
      action: 'bay.created',
      resourceType: 'bay',
      page: 3,
      pageSize: 50,
    });
  });
  it('sends the time zone only with days', () => {
    expect(read('from=2026-11-01')).toEqual({ from: '2026-11-01', tz: 'Australia/Sydney', page: 1, pageSize: 20 });
  });
  it('drops what the API would refuse', () => {
    expect(read('from=2026-13-01&to=nope&page=-2&pageSize=7&orgId=x')).toEqual({ page: 1, pageSize: 20 });
    expect(read('from=2026-11-05&to=2026-11-01', true, 'UTC')).toEqual({ from: '2026-11-05', tz: 'UTC', page: 1, pageSize: 20 });
  });
  it('reads the organization on the platform only', () => {
    const id = '0b8e5a4e-8f4c-4a51-9d43-5d1b5a0c1e2f';
    expect(read(`orgId=${id}`).orgId).toBe(id);
    expect(read(`orgId=${id}`, false).orgId).toBeUndefined();
  });
});

describe('auditResourceLabel and formatAuditDetail', () => {
  it('names the resource from its details', () => {
    expect(auditResourceLabel({ details: { tsr_number: 'TSR-1', name: 'x' } })).toBe('TSR-1');
    expect(auditResourceLabel({ details: { name: 'North Terminal' } })).toBe('North Terminal');
    expect(auditResourceLabel({ details: { count: 3 } })).toBeNull();
  });
  it('writes values as text', () => {
    expect(formatAuditDetail('a')).toBe('a');
    expect(formatAuditDetail(3)).toBe('3');
    expect(formatAuditDetail({ a: [1] })).toBe('{"a":[1]}');
    expect(formatAuditDetail(null)).toBe('—');
  });
});

describe('auditActorName and auditRoleLabel', () => {
  it('names the actor', () => {
    expect(auditActorName({ actorEmail: 'a@b.test', actorRole: 'org_admin' })).toBe('a@b.test');
    expect(auditActorName({ actorEmail: null, actorRole: 'public' })).toBe('Anonymous');
    expect(auditActorName({ actorEmail: null, actorRole: 'system' })).toBe('Baywise');
    expect(auditRoleLabel('org_admin')).toBe('Organization admin');
    expect(auditRoleLabel('custom')).toBe('custom');
    expect(auditRoleLabel(null)).toBe('—');
  });
  it('names the platform user who acted as the actor, when one did', () => {
    expect(auditImpersonationNote({ impersonatorId: 'u1', impersonatorEmail: 'sophie@baywise.test' })).toBe('Impersonated by sophie@baywise.test');
    expect(auditImpersonationNote({ impersonatorId: 'u1', impersonatorEmail: null })).toBe('Impersonated by a platform user');
    expect(auditImpersonationNote({ impersonatorId: null, impersonatorEmail: null })).toBeNull();
  });
});
