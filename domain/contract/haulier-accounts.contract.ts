import { z } from 'zod';
import {
  haulierAccountSchema,
  haulierBookingsPageSchema,
  haulierBookingsQuerySchema,
  haulierItemParamsSchema,
  haulierMeSchema,
  haulierSessionRequestSchema,
  haulierStandingBookingsSchema,
  rebookPrefillSchema,
  savedContactInputSchema,
  savedContactSchema,
  savedVehicleInputSchema,
  savedVehicleSchema,
  signInLinkAnswerSchema,
  signInLinkRequestSchema,
  standingRequestAnswerSchema,
  standingRequestSchema,
} from '../haulier-accounts';
import { defineContract } from './define-contract';

// A haulier's password-less account (server/modules/haulier-accounts/haulier-accounts.routes.ts,
// decision 044). Every route but the first two needs the haulier's session cookie (bw_haulier).

export const haulierAccountsContract = defineContract({
  'POST /api/public/haulier/sign-in-link': { body: signInLinkRequestSchema, response: { 202: signInLinkAnswerSchema } },
  'POST /api/public/haulier/sessions': { body: haulierSessionRequestSchema, response: { 200: haulierAccountSchema } },
  'DELETE /api/public/haulier/sessions/current': { response: { 204: z.null() } },
  'GET /api/public/haulier/me': { response: { 200: haulierMeSchema } },
  'GET /api/public/haulier/bookings': { querystring: haulierBookingsQuerySchema, response: { 200: haulierBookingsPageSchema } },
  'GET /api/public/haulier/bookings/:id/rebook': { params: haulierItemParamsSchema, response: { 200: rebookPrefillSchema } },
  'GET /api/public/haulier/vehicles': { response: { 200: z.array(savedVehicleSchema) } },
  'POST /api/public/haulier/vehicles': { body: savedVehicleInputSchema, response: { 201: savedVehicleSchema } },
  'DELETE /api/public/haulier/vehicles/:id': { params: haulierItemParamsSchema, response: { 204: z.null() } },
  'GET /api/public/haulier/contacts': { response: { 200: z.array(savedContactSchema) } },
  'POST /api/public/haulier/contacts': { body: savedContactInputSchema, response: { 201: savedContactSchema } },
  'DELETE /api/public/haulier/contacts/:id': { params: haulierItemParamsSchema, response: { 204: z.null() } },
  'GET /api/public/haulier/standing-bookings': { response: { 200: haulierStandingBookingsSchema } },
  'POST /api/public/haulier/standing-requests': { body: standingRequestSchema, response: { 201: standingRequestAnswerSchema } },
});
