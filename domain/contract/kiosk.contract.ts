import { z } from 'zod';
import { gateMoveResultSchema, walkInSchema } from '../gate';
import {
  createdKioskDeviceSchema,
  declineWalkInRequestSchema,
  kioskBookingStatusSchema,
  kioskCheckInResultSchema,
  kioskCheckInSchema,
  kioskDeviceCreateSchema,
  kioskDeviceSchema,
  kioskMeSchema,
  kioskWalkInRequestResultSchema,
  kioskWalkInRequestSchema,
  walkInRequestSchema,
} from '../kiosk';
import { defineContract } from './define-contract';

// The gate kiosk (server/modules/kiosk/kiosk.routes.ts): its devices in the organization's
// settings, the kiosk's own API (authenticated by the device's secret), and the walk-in requests
// on the dock screens.

const orgParams = z.object({ orgId: z.string() });
const deviceParams = orgParams.extend({ deviceId: z.string().max(100) });
const siteParams = z.object({ siteId: z.string() });
const requestParams = siteParams.extend({ requestId: z.string().max(100) });
const kioskBookingParams = z.object({ bookingId: z.string().max(100) });

export const kioskContract = defineContract({
  'GET /api/orgs/:orgId/settings/kiosk-devices': { params: orgParams, response: { 200: z.array(kioskDeviceSchema) } },
  'POST /api/orgs/:orgId/settings/kiosk-devices': { params: orgParams, body: kioskDeviceCreateSchema, response: { 201: createdKioskDeviceSchema } },
  'DELETE /api/orgs/:orgId/settings/kiosk-devices/:deviceId': { params: deviceParams, response: { 204: z.null() } },

  'GET /api/kiosk/me': { response: { 200: kioskMeSchema } },
  'GET /api/kiosk/logo': { produces: ['image/png', 'image/jpeg', 'image/webp'] },
  'POST /api/kiosk/check-in': { body: kioskCheckInSchema, response: { 200: kioskCheckInResultSchema } },
  'GET /api/kiosk/bookings/:bookingId/status': { params: kioskBookingParams, response: { 200: kioskBookingStatusSchema } },
  'POST /api/kiosk/walk-in-requests': { body: kioskWalkInRequestSchema, response: { 201: kioskWalkInRequestResultSchema } },

  'GET /api/sites/:siteId/kiosk/walk-in-requests': { params: siteParams, response: { 200: z.array(walkInRequestSchema) } },
  'POST /api/sites/:siteId/kiosk/walk-in-requests/:requestId/accept': { params: requestParams, body: walkInSchema, response: { 201: gateMoveResultSchema } },
  'POST /api/sites/:siteId/kiosk/walk-in-requests/:requestId/decline': { params: requestParams, body: declineWalkInRequestSchema, response: { 200: walkInRequestSchema } },
});
