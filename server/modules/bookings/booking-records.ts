// What other modules use of the bookings tables directly (issue 20: no module imports another
// module's repo). The booking view is the one read every screen, mail and outbound event shares.
// The writes are the gate's walk-ins and the SSC appointments' own updates, until those go through
// the one creation path and the lifecycle table (issue 20, items 1 and 2).
export { findBookingView, findByIdempotencyKey, insertBooking, updateBooking, type BookingView } from './bookings.repo';
