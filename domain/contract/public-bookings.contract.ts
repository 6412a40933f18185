import { z } from 'zod';
import { availabilityQuerySchema, availabilityResponseSchema } from '../availability-query';
import { isCalendarDate, isTimeOfDay } from '../booking-request';
import { lateAcceptSchema, lateReportResultSchema, lateReportSchema } from '../late-report';
import { bookingInfoSchema, manageViewSchema, submittedBookingSchema } from '../public-booking';
import { multiLine } from '../text-rules';
import { defineContract, MULTIPART_FORM } from './define-contract';

// The public booking portal and the haulier's manage link (server/modules/bookings/public-bookings.routes.ts).

const tokenParams = z.object({ token: z.string().max(200) });
const dateSchema = z.string().refine(isCalendarDate, 'Date must be a valid date (YYYY-MM-DD)');

/** A retried submission with the same key answers the first booking (Idempotent-Replayed: true). */
export const submitBookingHeadersSchema = z.object({ 'idempotency-key': z.string().min(8).max(200).optional() });
export const manageCancelSchema = z.object({ reason: z.string().trim().refine(...multiLine('Reason')).max(500, 'Reason is too long').optional() }).default({});
export const manageAvailabilitySchema = z.object({ date: dateSchema });
export const manageRescheduleSchema = z.object({ date: dateSchema, slot: z.string().refine(isTimeOfDay, 'Time slot is required') });

export const publicBookingsContract = defineContract({
  'GET /api/public/booking-info': { response: { 200: bookingInfoSchema } },
  'POST /api/public/availability': { body: availabilityQuerySchema, response: { 200: availabilityResponseSchema } },
  // Multipart (a `data` JSON field, then the `documents` files) read by the handler; a JSON body is the request alone.
  'POST /api/public/bookings': { headers: submitBookingHeadersSchema, consumes: MULTIPART_FORM, response: { 200: submittedBookingSchema, 201: submittedBookingSchema } },
  'GET /api/public/manage/:token': { params: tokenParams, response: { 200: manageViewSchema } },
  'POST /api/public/manage/:token/cancel': { params: tokenParams, body: manageCancelSchema, response: { 200: manageViewSchema } },
  'POST /api/public/manage/:token/availability': { params: tokenParams, body: manageAvailabilitySchema, response: { 200: availabilityResponseSchema } },
  'POST /api/public/manage/:token/reschedule': { params: tokenParams, body: manageRescheduleSchema, response: { 200: manageViewSchema } },
  'POST /api/public/manage/:token/late': { params: tokenParams, body: lateReportSchema, response: { 200: lateReportResultSchema } },
  'POST /api/public/manage/:token/late/accept': { params: tokenParams, body: lateAcceptSchema, response: { 200: manageViewSchema } },
});
