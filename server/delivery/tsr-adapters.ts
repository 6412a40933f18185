import type { TsrLinkSystem } from '../../domain/webhooks';

// How a status change reaches each TSR system (docs/webhooks.md "TSR link"). The booking's TSR
// URL names the record; the request goes to the organization's connection (never to another
// host: the record must be on the connection's base URL, so credentials cannot be sent elsewhere).
//
// ServiceNow — checked against ServiceNow's public REST Table API documentation: PATCH
//   /api/now/table/{tableName}/{sys_id} with a JSON body of the fields to change; `work_notes` is
//   a journal field, so a value written there is appended as a new work note (not replacing
//   earlier ones). Basic authentication with an integration user; JSON in and out.
// FMClarity — we found no public API reference to check against. The request below (a comment
//   POSTed to the work request's comments collection with an API key as a bearer token) is an
//   assumption kept in this one function, to be confirmed with FMClarity before production use.

export type TsrCredentials = { username?: string; password?: string; apiKey?: string };
export type TsrRequest = { method: 'PATCH' | 'POST'; url: string; body: string };

const SYS_ID = /^[0-9a-f]{32}$/i;
const TABLE = /^[a-z][a-z0-9_]*$/;

/** A ServiceNow record named by a link to it (form link, nav_to, the Next Experience URL, or a Table API URL). */
export function serviceNowRecord(tsrUrl: string): { table: string; sysId: string } | null {
  let url: URL;
  try {
    url = new URL(tsrUrl);
  } catch {
    return null;
  }
  const candidates = [url.pathname + url.search, decodeURIComponent(url.pathname + url.search), decodeURIComponent(decodeURIComponent(url.href))];
  for (const text of candidates) {
    const api = /\/api\/now\/(?:v\d+\/)?table\/([a-z][a-z0-9_]*)\/([0-9a-f]{32})/i.exec(text);
    if (api) return { table: api[1]!.toLowerCase(), sysId: api[2]!.toLowerCase() };
    const form = /([a-z][a-z0-9_]*)\.do\?(?:[^#]*&)?sys_id=([0-9a-f]{32})/i.exec(text);
    if (form && form[1]!.toLowerCase() !== 'nav_to') return { table: form[1]!.toLowerCase(), sysId: form[2]!.toLowerCase() };
    const record = /\/record\/([a-z][a-z0-9_]*)\/([0-9a-f]{32})/i.exec(text);
    if (record) return { table: record[1]!.toLowerCase(), sysId: record[2]!.toLowerCase() };
  }
  return null;
}

/** An FMClarity work request id from its link (…/requests/{id} or ?request={id}). */
export function fmClarityRecord(tsrUrl: string): { requestId: string } | null {
  let url: URL;
  try {
    url = new URL(tsrUrl);
  } catch {
    return null;
  }
  const path = /\/requests?\/([A-Za-z0-9_-]{3,64})(?:\/|$)/.exec(url.pathname);
  const id = path?.[1] ?? url.searchParams.get('request') ?? url.searchParams.get('requestId');
  return id && /^[A-Za-z0-9_-]{3,64}$/.test(id) ? { requestId: id } : null;
}

/** The request that posts `note` to the TSR record, or null when the link names no record on this connection. */
export function tsrNoteRequest(system: TsrLinkSystem, baseUrl: string, tsrUrl: string, note: string): TsrRequest | null {
  let origin: string;
  try {
    origin = new URL(tsrUrl).origin;
  } catch {
    return null;
  }
  if (origin !== new URL(baseUrl).origin) return null;
  if (system === 'servicenow') {
    const record = serviceNowRecord(tsrUrl);
    if (!record || !TABLE.test(record.table) || !SYS_ID.test(record.sysId)) return null;
    return {
      method: 'PATCH',
      url: `${origin}/api/now/table/${record.table}/${record.sysId}?sysparm_fields=sys_id`,
      body: JSON.stringify({ work_notes: note }),
    };
  }
  const record = fmClarityRecord(tsrUrl);
  if (!record) return null;
  return { method: 'POST', url: `${origin}/api/v1/requests/${record.requestId}/comments`, body: JSON.stringify({ comment: note, source: 'Baywise' }) };
}

/** The authentication headers of a connection. */
export function tsrAuthHeaders(system: TsrLinkSystem, credentials: TsrCredentials): Record<string, string> {
  if (system === 'servicenow') {
    return { authorization: `Basic ${Buffer.from(`${credentials.username ?? ''}:${credentials.password ?? ''}`).toString('base64')}`, accept: 'application/json' };
  }
  return { authorization: `Bearer ${credentials.apiKey ?? ''}`, accept: 'application/json' };
}
