// What other modules use of the bookings tables directly (issue 20: no module imports another
// module's repo). The booking view is the one read every screen, mail and outbound event shares.
// New bookings go through createBookingInTx (create-booking.ts), moves through moveBookingInTx
// (move-booking.ts), status moves through the lifecycle service: no write is left here.
export { findBookingView, findByIdempotencyKey, type BookingView } from './bookings.repo';
