import { SSC_PROBLEM_TITLES, SSC_PROBLEM_TYPES, type SscArgumentProblem } from '../../../domain/ssc';
import { AppError } from '../../plugins/errors';

// The standard's failure answer: { status: 'FAILURE', problemDetails: [...] }. An RPC call the
// standard accepts but we refuse (a slot taken, a vehicle too tall) answers 200 with it, as the
// standard asks; a body the standard's schema refuses answers 400; an appointment or location the
// key cannot see answers 404; a missing, revoked or expired key 401; a missing scope 403; the rate
// limit 429 (docs/decisions/020-carrier-api.md).

export type SscProblem = { type?: string; title: string; detail?: string; arguments?: SscArgumentProblem[]; identifiers?: Record<string, unknown> };

type Kind = keyof typeof SSC_PROBLEM_TITLES;
/** The standard's problem kind: its URI as `type`, its schema title as `title` (see domain/ssc.ts). */
const kind = (k: Kind) => ({ type: SSC_PROBLEM_TYPES[k], title: SSC_PROBLEM_TITLES[k] });

export type SscFailureBody = { status: 'FAILURE'; problemDetails: SscProblem[] };

export class SscFailure extends Error {
  constructor(
    readonly statusCode: number,
    readonly problems: SscProblem[],
  ) {
    super(problems.map((p) => p.detail ?? p.title).join('; '));
    this.name = 'SscFailure';
  }

  body(): SscFailureBody {
    return { status: 'FAILURE', problemDetails: this.problems };
  }
}

/** The body breaks the standard's schema: 400, every problem listed. */
export const schemaViolation = (problems: SscArgumentProblem[]) =>
  new SscFailure(400, [{ ...kind('invalidArgument'), detail: 'The request does not match the SSC appointments standard', arguments: problems }]);

/** A well-formed argument we cannot accept (unknown equipment, a duration out of range…): 200. */
export const invalidArgument = (detail: string, problems: SscArgumentProblem[]) =>
  new SscFailure(200, [{ ...kind('invalidArgument'), detail, arguments: problems }]);

/** Nothing the key can see matches the identifiers: 404. */
export const entityNotFound = (detail: string, identifiers?: Record<string, unknown>) =>
  new SscFailure(404, [{ ...kind('entityNotFound'), detail, ...(identifiers ? { identifiers } : {}) }]);

/**
 * A subscription Baywise refuses (a callback URL it will not call, an id that is not the URL's, the
 * tenant's limit): the webhook operations are REST resources, so a 4xx (400 or 422), never 200.
 */
export const subscriptionRefused = (statusCode: 400 | 422, detail: string, problems: SscArgumentProblem[]) =>
  new SscFailure(statusCode, [{ ...kind('invalidArgument'), detail, arguments: problems }]);

/** A method the standard's RPC path does not take (it takes POST): 405. */
export const methodNotAllowed = (method: string, path: string) =>
  new SscFailure(405, [{ title: 'Method Not Allowed', detail: `${path} takes POST, not ${method}` }]);

export const capabilityNotSupported = (detail: string) => new SscFailure(200, [{ ...kind('capabilityNotSupported'), detail }]);

/** The appointment cannot be made or changed (slot taken, blackout, out of hours, too tall…): 200. */
export const appointmentError = (detail: string) => new SscFailure(200, [{ ...kind('appointmentError'), detail }]);

const HTTP_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
};

/**
 * Any error of an SSC route as the standard's failure: ours as they are; a refusal of the booking
 * path (AppError 4xx) as an appointment error (validation messages as invalid arguments); the
 * protocol's own (401, 403, 429, bad JSON) under their HTTP title. Null: a server fault.
 */
export function toSscFailure(error: unknown): SscFailure | null {
  if (error instanceof SscFailure) return error;
  if (error instanceof AppError) {
    if ([401, 403, 429].includes(error.statusCode)) return new SscFailure(error.statusCode, [{ title: HTTP_TITLES[error.statusCode]!, detail: error.message }]);
    if (error.statusCode === 404) return entityNotFound(error.message);
    if (error.statusCode >= 500) return null;
    if (error.code === 'validation_error') {
      const messages = ((error.details as { messages?: string[] } | undefined)?.messages ?? [error.message]).map((detail) => ({ key: '(booking)', detail }));
      return invalidArgument(error.message, messages);
    }
    return appointmentError(error.message);
  }
  const status = (error as { statusCode?: number })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const detail = (error as Error).message || HTTP_TITLES[status] || 'Bad request';
    if (status === 400) return schemaViolation([{ key: '(body)', detail }]);
    return new SscFailure(status, [{ title: HTTP_TITLES[status] ?? 'Client Error', detail }]);
  }
  return null;
}
