import { z } from 'zod';
import {
  emergencyResultSchema,
  emergencyStateSchema,
  emergencyStopSchema,
  gateApproveSchema,
  gateDeclineSchema,
  gateExtendSchema,
  gateMoveResultSchema,
  gateMoveSchema,
  gateOverviewSchema,
  gateQueueSchema,
  gateStartSchema,
  walkInSchema,
} from '../gate';
import { defineContract } from './define-contract';

// The gate and the bays of one site (server/modules/gate/gate.routes.ts).

const siteParams = z.object({ siteId: z.string() });
const bookingParams = siteParams.extend({ bookingId: z.string().max(100) });

export const gateContract = defineContract({
  'GET /api/sites/:siteId/gate/overview': { params: siteParams, response: { 200: gateOverviewSchema } },
  'GET /api/sites/:siteId/gate/queue': { params: siteParams, response: { 200: gateQueueSchema } },
  'POST /api/sites/:siteId/gate/bookings/:bookingId/check-in': { params: bookingParams, body: gateMoveSchema.optional(), response: { 200: gateMoveResultSchema } },
  'POST /api/sites/:siteId/gate/bookings/:bookingId/start': { params: bookingParams, body: gateStartSchema.optional(), response: { 200: gateMoveResultSchema } },
  'POST /api/sites/:siteId/gate/bookings/:bookingId/check-out': { params: bookingParams, body: gateMoveSchema.optional(), response: { 200: gateMoveResultSchema } },
  'POST /api/sites/:siteId/gate/bookings/:bookingId/extend': { params: bookingParams, body: gateExtendSchema, response: { 200: gateMoveResultSchema } },
  'POST /api/sites/:siteId/gate/bookings/:bookingId/approve': { params: bookingParams, body: gateApproveSchema, response: { 200: gateMoveResultSchema } },
  'POST /api/sites/:siteId/gate/bookings/:bookingId/decline': { params: bookingParams, body: gateDeclineSchema, response: { 200: gateMoveResultSchema } },
  'POST /api/sites/:siteId/gate/walk-ins': { params: siteParams, body: walkInSchema, response: { 201: gateMoveResultSchema } },
  'GET /api/sites/:siteId/gate/emergency': { params: siteParams, response: { 200: emergencyStateSchema } },
  'POST /api/sites/:siteId/gate/emergency': { params: siteParams, body: emergencyStopSchema, response: { 200: emergencyResultSchema } },
  'DELETE /api/sites/:siteId/gate/emergency': { params: siteParams, response: { 200: emergencyResultSchema } },
});
