import { bookingRequestSchema, formatValidationError, validateBookingRequest } from '../../../../domain/booking-request';
import { zodFormValidate } from '../../../lib/zod-form';

// The shared schema's checks for the booking form, in a chunk of their own with zod: the form is
// shown without them and loads them when the haulier starts filling it in (loadRequestValidator).

export const fieldErrors = zodFormValidate(bookingRequestSchema);
export { formatValidationError, validateBookingRequest };
