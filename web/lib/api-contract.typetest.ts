import type { BookingDetail, BookingList } from '../../domain/org-bookings';
import type { SubmittedBooking } from '../../domain/public-booking';
import type { TsrConnection } from '../../domain/webhooks';
import { apiCall, apiPath, fetchApiFile, type ApiBody, type ApiParams, type ApiQuery, type ApiResponse } from './api-client';

// Compiled by `npm run typecheck` (tsconfig.json includes web/), never run. Each expect-error line
// below must be a type error, and fails the typecheck the day it is not — so a contract that
// stopped telling a wrong path, params, query, body or answer apart is caught.
// Each call sits in a function that is never called: nothing here touches the network.

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expectType = <T extends true>(_proof: T) => undefined;

// The answer is the response schema's output; params come from the path.
expectType<Equal<ApiResponse<'GET /api/orgs/:orgId/bookings'>, BookingList>>(true);
expectType<Equal<ApiResponse<'POST /api/orgs/:orgId/bookings/:bookingId/transitions'>, BookingDetail>>(true);
expectType<Equal<ApiParams<'GET /api/orgs/:orgId/bookings/:bookingId'>, { orgId: string; bookingId: string } & { orgId: string; bookingId: string }>>(true);
// A success without content answers undefined.
expectType<Equal<ApiResponse<'DELETE /api/orgs/:orgId/webhooks/:webhookId'>, undefined>>(true);
// A multipart upload takes FormData; an operation without a body takes none.
expectType<Equal<ApiBody<'PUT /api/orgs/:orgId/settings/logo'>, FormData>>(true);
expectType<Equal<ApiBody<'POST /api/orgs/:orgId/bays/:bayId/reactivate'>, never>>(true);
// A params schema that says more than "a string" narrows the parameter.
expectType<Equal<ApiParams<'DELETE /api/orgs/:orgId/tsr-connections/:system'>['system'], TsrConnection['system']>>(true);
// Two answers with a body (a replay answers 200, a new booking 201) are one type.
expectType<Equal<ApiResponse<'POST /api/public/bookings'>, SubmittedBooking>>(true);
// An operation without a query string takes none.
expectType<Equal<ApiQuery<'GET /api/public/booking-info'>, never>>(true);

export async function rightCalls(orgId: string, bookingId: string) {
  const list: BookingList = await apiCall('GET /api/orgs/:orgId/bookings', { params: { orgId }, query: { status: ['pending'], page: 2 } });
  const detail: BookingDetail = await apiCall('POST /api/orgs/:orgId/bookings/:bookingId/transitions', {
    params: { orgId, bookingId },
    body: { to: 'approved', version: 3 },
  });
  const info = await apiCall('GET /api/public/booking-info', { anonymous: true });
  const url: string = apiPath('GET /api/orgs/:orgId/reports/utilisation.csv', { params: { orgId }, query: { from: '2026-01-01', to: '2026-01-31' } });
  return [list, detail, info, url];
}

export async function wrongCalls(orgId: string, bookingId: string) {
  // @ts-expect-error an unknown path
  await apiCall('GET /api/orgs/:orgId/bookingz', { params: { orgId } });
  // @ts-expect-error a path the API has, with a method it does not
  await apiCall('DELETE /api/orgs/:orgId/bookings', { params: { orgId } });

  // @ts-expect-error the wrong answer type for the path: a booking list is not one booking
  const wrongAnswer: BookingDetail = await apiCall('GET /api/orgs/:orgId/bookings', { params: { orgId } });

  // @ts-expect-error a path parameter missing
  await apiCall('GET /api/orgs/:orgId/bookings/:bookingId', { params: { orgId } });
  // @ts-expect-error a path parameter the path does not have
  await apiCall('GET /api/orgs/:orgId/bookings', { params: { orgId, siteId: 'x' } });
  // @ts-expect-error no params at all for a path that has them
  await apiCall('GET /api/orgs/:orgId/dashboard');
  // @ts-expect-error a parameter outside its enum
  await apiCall('DELETE /api/orgs/:orgId/tsr-connections/:system', { params: { orgId, system: 'sap' } });

  // @ts-expect-error a query field of the wrong type
  await apiCall('GET /api/orgs/:orgId/bookings', { params: { orgId }, query: { status: 'nonsense' } });
  // @ts-expect-error a query for an operation that takes none
  await apiCall('GET /api/public/booking-info', { query: { q: 'x' } });

  // @ts-expect-error the body is required
  await apiCall('POST /api/orgs/:orgId/bookings/:bookingId/transitions', { params: { orgId, bookingId } });
  // @ts-expect-error a body of the wrong shape (a transition names its target status)
  await apiCall('POST /api/orgs/:orgId/bookings/:bookingId/transitions', { params: { orgId, bookingId }, body: { status: 'approved' } });
  // @ts-expect-error a body for an operation that takes none
  await apiCall('POST /api/orgs/:orgId/bays/:bayId/reactivate', { params: { orgId, bayId: 'b' }, body: { active: true } });
  // @ts-expect-error JSON for a multipart upload
  await apiCall('PUT /api/orgs/:orgId/settings/logo', { params: { orgId }, body: { logo: 'x' } });

  // @ts-expect-error a file download is not JSON: fetchApiFile, never apiCall
  await apiCall('GET /api/platform/invoices/:invoiceId/pdf', { params: { invoiceId: 'i' } });
  // @ts-expect-error a JSON operation is not a file
  await fetchApiFile('GET /api/orgs/:orgId/bookings', { params: { orgId }, failure: 'x' });
  return wrongAnswer;
}
