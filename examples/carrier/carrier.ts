import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import createClient from 'openapi-fetch';
import type { paths } from './ssc-api';

// A carrier's TMS against Baywise's SSC appointments API, with the typed client generated from
// /api/ssc/openapi.json (ssc-api.ts, `npm run ssc:client`) and openapi-fetch: subscribe to
// appointment-changed, find a slot, book it, move it, cancel it, and check the signature of each
// event Baywise posts back. README.md says how to run it against a local Baywise;
// carrier.test.ts runs it against one in the test suite.

export type SscClient = ReturnType<typeof createSscClient>;

/** The client: base URL of a Baywise (e.g. http://localhost:3000), an API key (bw_live_…). */
export function createSscClient(baseUrl: string, apiKey: string, fetchImpl?: (request: Request) => Promise<Response>) {
  return createClient<paths>({
    baseUrl: `${baseUrl.replace(/\/$/, '')}/api/ssc`,
    headers: { authorization: `Bearer ${apiKey}` },
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
}

/** Baywise-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")> (docs/webhooks.md). */
export function verifyBaywiseSignature(secret: string, header: string, rawBody: string, nowSeconds = Date.now() / 1000, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.trim().split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = crypto.createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

export type ReceivedEvent = { verified: boolean; body: Record<string, unknown> };

/** A callback endpoint: every POST is checked against the signing secret (set once subscribed). */
export async function startReceiver(port = 0, now: () => number = () => Date.now() / 1000) {
  const events: ReceivedEvent[] = [];
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  let secret = '';
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const verified = verifyBaywiseSignature(secret, String(request.headers['baywise-signature'] ?? ''), raw, now());
      events.push({ verified, body: JSON.parse(raw) as Record<string, unknown> });
      response.writeHead(verified ? 204 : 400).end();
      for (const w of waiting.filter((w) => events.length >= w.count)) w.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/baywise`,
    events,
    setSecret: (value: string) => void (secret = value),
    waitFor: (count: number, timeoutMs: number) =>
      new Promise<void>((resolve, reject) => {
        if (events.length >= count) return resolve();
        const timer = setTimeout(() => reject(new Error(`waited ${timeoutMs} ms for ${count} events, got ${events.length}`)), timeoutMs);
        waiting.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function fail(step: string, status: number, body: unknown): never {
  throw new Error(`${step}: ${status} ${JSON.stringify(body)}`);
}

/** Books, reschedules and cancels one load at a location on a date; answers what Baywise said. */
export async function bookRescheduleCancel(client: SscClient, input: { locationId: string; date: string; reference: string }) {
  const offered = await client.POST('/appointments/v1/fetch-available-appointments', {
    body: { identifiers: { locationId: input.locationId }, dateRestrictions: { exactDate: input.date } },
  });
  if (!offered.data || offered.data.status !== 'SUCCESS') fail('fetch-available-appointments', offered.response.status, offered.data ?? offered.error);
  const slots = offered.data.appointments;
  if (slots.length < 2) throw new Error(`fetch-available-appointments: ${slots.length} slots on ${input.date}, need 2`);

  const scheduled = await client.POST('/appointments/v1/schedule-appointment', {
    params: { header: { 'Idempotency-Key': `${input.reference}-book` } },
    body: { identifiers: { primaryReferenceNumber: input.reference, locationId: input.locationId }, preferredAppointment: { id: slots[0]!.id, loadingType: 'LIVE' } },
  });
  if (!scheduled.data || scheduled.data.status !== 'SUCCESS') fail('schedule-appointment', scheduled.response.status, scheduled.data ?? scheduled.error);
  const booked = scheduled.data.appointment;

  const moved = await client.POST('/appointments/v1/reschedule-appointment', {
    body: { identifiers: { appointmentId: booked.id }, preferredAppointment: { id: slots.at(-1)!.id }, reasonCode: 'CARRIER_DELAY' },
  });
  // A confirmed appointment's new time may wait for the site: PENDING, the appointment kept meanwhile,
  // and the outcome (RESCHEDULED or RESCHEDULE_REFUSED) arrives as appointment-changed.
  if (!moved.data || moved.data.status === 'FAILURE') fail('reschedule-appointment', moved.response.status, moved.data ?? moved.error);

  const cancelled = await client.POST('/appointments/v1/cancel-appointment', {
    body: { identifiers: { appointmentId: booked.id }, reasonCode: 'LOAD_CANCELLED', comment: 'Load cancelled by the shipper' },
  });
  if (!cancelled.data || cancelled.data.status !== 'SUCCESS') fail('cancel-appointment', cancelled.response.status, cancelled.data ?? cancelled.error);

  const details = await client.POST('/appointments/v1/fetch-appointment-details', { body: { identifiers: { appointmentId: booked.id } } });
  if (!details.data || details.data.status !== 'SUCCESS') fail('fetch-appointment-details', details.response.status, details.data ?? details.error);
  return {
    appointmentId: booked.id,
    bookedAt: booked.arrivalWindow.startDateTime,
    movedTo: moved.data.status === 'SUCCESS' ? moved.data.appointment.arrivalWindow.startDateTime : null,
    finalStatus: details.data.appointmentStatus,
  };
}

/** Subscribes the receiver to appointment-changed; answers the subscription id and its signing secret. */
export async function subscribe(client: SscClient, callbackUrl: string) {
  const created = await client.POST('/webhooks/v1/subscriptions', { body: { eventTypes: ['appointment-changed'], callbackUrl } });
  if (!created.data) fail('subscribe', created.response.status, created.error);
  const secret = created.response.headers.get('baywise-signing-secret');
  if (!secret) throw new Error('subscribe: no signing secret in the answer');
  return { subscriptionId: created.data.subscriptionId!, secret };
}

async function main() {
  const baseUrl = process.env.BAYWISE_URL ?? 'http://localhost:3000';
  const apiKey = process.env.BAYWISE_API_KEY;
  const locationId = process.env.BAYWISE_LOCATION_ID;
  const date = process.env.BAYWISE_DATE ?? new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  if (!apiKey || !locationId) throw new Error('Set BAYWISE_API_KEY and BAYWISE_LOCATION_ID (README.md)');
  const client = createSscClient(baseUrl, apiKey);
  const receiver = await startReceiver(Number(process.env.RECEIVER_PORT ?? 0));
  try {
    const { subscriptionId, secret } = await subscribe(client, process.env.CALLBACK_URL ?? receiver.url);
    receiver.setSecret(secret);
    const result = await bookRescheduleCancel(client, { locationId, date, reference: `EXAMPLE-${Date.now()}` });
    console.log('appointment', result);
    await receiver.waitFor(2, Number(process.env.WAIT_MS ?? 60_000));
    for (const event of receiver.events) console.log('event', event.body.reasonCode, event.verified ? 'signature verified' : 'SIGNATURE REFUSED');
    await client.DELETE('/webhooks/v1/subscriptions/{subscriptionId}', { params: { path: { subscriptionId } } });
    if (receiver.events.some((e) => !e.verified)) process.exitCode = 1;
  } finally {
    await receiver.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
