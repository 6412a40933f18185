// What other modules use of the bookings tables directly (issue 20: no module imports another
// module's repo). The booking view is the one read every screen, mail and outbound event shares.
// New bookings go through createBookingInTx (create-booking.ts); the writes left here are the SSC
// appointments' and the gate's own updates.
export { findBookingView, findByIdempotencyKey, updateBooking, type BookingView } from './bookings.repo';
