import { z } from 'zod';
import {
  SSC_APPOINTMENT_STATUSES,
  SSC_APPOINTMENT_TYPES,
  SSC_LOADING_TYPES,
  SSC_STOP_TYPES,
  SSC_WEBHOOK_EVENT_TYPES,
  sscEquipmentSchema,
} from '../../../domain/ssc';

// Baywise's profile of the SSC appointments standard v1.1 as zod: the request and response shapes
// the routes of ssc.routes.ts carry as their schema, from which @fastify/swagger writes both the
// general /api/docs and the SSC surface's own /api/ssc/openapi.json (ssc-docs.routes.ts).
// The bodies themselves are checked by the service against domain/ssc.ts (so a refusal lists every
// problem in the standard's failure shape); ssc.contract.test.ts checks that this profile accepts
// and refuses exactly what the standard's document does for every request it sends, and that every
// answer matches the profile.

const described = <T extends z.ZodType>(schema: T, description: string) => schema.describe(description);

const address = z.looseObject({
  streetAddress: z.string().optional(),
  region: z.string().optional(),
  locality: z.string().optional(),
  country: z.string().optional(),
  postalCode: z.string().optional(),
});

/** commonIdentifiers: the load and stop (additionalProperties: false in the standard). */
const commonIdentifiers = z
  .strictObject({
    primaryReferenceNumber: z.string().optional(),
    poNumber: z.string().optional(),
    bolNumber: z.string().optional(),
    stopSequenceNumber: z.int().min(0).optional(),
    locationId: described(z.string(), 'A site id (Locations in docs/ssc-mapping.md)').optional(),
    locationAddress: address.optional(),
  })
  .meta({ title: 'Load and Stop Identifiers' });

const appointmentId = z.looseObject({ appointmentId: described(z.string(), 'The booking id Baywise answered as appointment.id') }).meta({ title: 'Appointment Identifier' });
const requestIdentifier = z.looseObject({ requestIdentifier: z.string() }).meta({ title: 'Pending Request Identifier' });
const appointmentIdentifier = z.xor([commonIdentifiers, appointmentId]);

const appointmentType = z.enum(SSC_APPOINTMENT_TYPES);
const loadingType = z.enum(SSC_LOADING_TYPES);
const arrivalWindow = z.looseObject({
  startDateTime: z.iso.datetime({ offset: true }),
  duration: described(z.string(), 'ISO 8601 duration, whole minutes (e.g. PT1H)').meta({ format: 'duration' }),
});
const named = z.looseObject({ id: z.string().optional(), name: z.string() });

const clientRequestedAppointment = z.xor([
  z.looseObject({ id: described(z.string(), 'An id fetch-available-appointments offered'), appointmentType: appointmentType.optional(), loadingType: loadingType.optional() }).meta({ title: 'Appointment ID' }),
  z
    .looseObject({ appointmentType: appointmentType.optional(), arrivalWindow, dockGroup: named.optional(), dockDoor: named.optional(), loadingType: loadingType.optional() })
    .meta({ title: 'Appointment Details' }),
]);

/** Baywise's extensions beside the standard's properties (the standard's request objects are open). */
const extensions = {
  equipment: sscEquipmentSchema.optional().describe('Baywise extension: the vehicle (type, height, length, registration, hazardous…); default VAN'),
  stopType: z.enum(SSC_STOP_TYPES).optional().describe('Baywise extension: DELIVERY (default) or PICKUP'),
};

export const fetchAvailableBody = z.looseObject({
  identifiers: z.xor([appointmentId, requestIdentifier, commonIdentifiers]),
  dateRestrictions: z
    .xor([z.looseObject({ startDate: z.iso.date(), endDate: z.iso.date() }).meta({ title: 'Date Range' }), z.looseObject({ exactDate: z.iso.date() }).meta({ title: 'Exact Date' })])
    .optional(),
  ...extensions,
});
export const scheduleBody = z.looseObject({
  identifiers: commonIdentifiers,
  preferredAppointment: clientRequestedAppointment,
  reasonCode: z.string().optional(),
  comment: z.string().optional(),
  ...extensions,
});
export const rescheduleBody = z.looseObject({
  identifiers: appointmentIdentifier,
  preferredAppointment: clientRequestedAppointment,
  reasonCode: z.string().optional(),
  comment: z.string().optional(),
  ...extensions,
});
export const cancelBody = z.looseObject({ identifiers: appointmentIdentifier, reasonCode: z.string().optional(), comment: z.string().optional() });
export const detailsBody = z.looseObject({ identifiers: appointmentIdentifier });

const eventTypes = z.array(z.enum(SSC_WEBHOOK_EVENT_TYPES));
const callbackUrl = z.url().describe('https; private, loopback and link-local addresses are refused');
export const subscribeBody = z.looseObject({ eventTypes, callbackUrl: callbackUrl.optional() });
export const subscription = z.looseObject({ subscriptionId: z.string().optional(), eventTypes: eventTypes.optional(), callbackUrl: callbackUrl.optional() }).meta({ title: 'Subscription' });
export const subscriptionParams = z.object({ subscriptionId: z.string().describe('The id subscribe answered') });

// ---- Answers ---------------------------------------------------------------------------------------

const problem = z
  .looseObject({
    type: z.string().optional().describe('The standard’s problem URI (entityNotFound, invalidArgumentError, capabilityNotSupportedError, appointmentError)'),
    title: z.string().describe('The kind’s name (decision 020: the standard’s oneOf cannot validate a typed problem), or the HTTP status’s title'),
    detail: z.string().optional(),
    arguments: z.array(z.looseObject({ key: z.string(), detail: z.string(), value: z.looseObject({}).optional() })).optional(),
    identifiers: z.looseObject({}).optional(),
  })
  .meta({ title: 'Problem' });
export const failure = z.looseObject({ status: z.literal('FAILURE'), problemDetails: z.array(problem) }).meta({ title: 'Failure' });

const location = { locationId: z.string(), locationAddress: address.optional() };
const appointment = z.looseObject({ id: z.string(), arrivalWindow, dockGroup: named.optional(), dockDoor: named.optional(), loadingType: loadingType.optional() });
const appointmentAnswer = z
  .looseObject({
    status: z.literal('SUCCESS'),
    appointment,
    appointmentStatus: z.enum(SSC_APPOINTMENT_STATUSES),
    appointmentConfirmationNumber: z.string(),
    mostRecentReasonCode: z.string().optional(),
    mostRecentComment: z.string().optional(),
    ...location,
  })
  .meta({ title: 'Success' });
const availableAnswer = z
  .looseObject({
    status: z.literal('SUCCESS'),
    appointments: z.array(z.looseObject({ id: z.string(), appointmentType, arrivalWindow, loadingType: loadingType.optional() })),
    ...location,
  })
  .meta({ title: 'Success' });
/** A reschedule of a confirmed appointment the site reviews: the appointment stays as it is until then (appointment-changed tells the outcome). */
const pendingAnswer = z.looseObject({ status: z.literal('PENDING') }).meta({ title: 'Pending' });
const cancelAnswer = z.looseObject({ status: z.literal('SUCCESS') }).meta({ title: 'Success' });

const protocolFailures = {
  400: failure.describe('The body breaks the standard’s schema (every problem listed as invalidArgumentError arguments), or is not JSON'),
  401: failure.describe('No API key, or an unknown, revoked or expired one'),
  403: failure.describe('The key lacks the operation’s scope'),
  404: failure.describe('Nothing the key’s tenant can see matches the identifiers (entityNotFound)'),
  429: failure.describe('The key’s rate limit per minute; Retry-After says when to retry'),
};
/** An RPC operation: 200 with SUCCESS, or 200 with FAILURE for a well-formed request Baywise refuses. */
const rpcAnswers = (success: z.ZodType) => ({ 200: z.xor([success, failure]), ...protocolFailures });

export const answers = {
  fetchAvailable: rpcAnswers(availableAnswer),
  schedule: rpcAnswers(appointmentAnswer),
  reschedule: {
    ...rpcAnswers(appointmentAnswer),
    200: z.xor([appointmentAnswer, pendingAnswer, failure]).describe('SUCCESS (moved), PENDING (a confirmed appointment’s new slot awaits the site) or FAILURE'),
  },
  cancel: rpcAnswers(cancelAnswer),
  details: rpcAnswers(appointmentAnswer),
  listSubscriptions: { 200: z.looseObject({ subscriptions: z.array(subscription) }), 401: protocolFailures[401], 403: protocolFailures[403], 429: protocolFailures[429] },
  subscribe: {
    201: subscription,
    ...protocolFailures,
    422: failure.describe('A callback URL Baywise will not call (private address, not https…) or the tenant’s subscription limit'),
  },
  getSubscription: { 200: subscription, ...protocolFailures },
  updateSubscription: {
    200: subscription,
    ...protocolFailures,
    400: failure.describe('The body breaks the standard’s schema, or its subscriptionId is not the one in the URL'),
    422: failure.describe('A callback URL Baywise will not call'),
  },
  deleteSubscription: { 204: z.null().describe('Deleted'), ...protocolFailures },
};

/** The RPC paths of the standard: POST only (any other method answers 405 in the failure shape). */
export const SSC_RPC_PATHS = [
  '/appointments/v1/fetch-available-appointments',
  '/appointments/v1/schedule-appointment',
  '/appointments/v1/reschedule-appointment',
  '/appointments/v1/cancel-appointment',
  '/appointments/v1/fetch-appointment-details',
] as const;
