// The SSC appointment endpoints over our booking model (docs/ssc-mapping.md), one file per
// operation; ssc.routes.ts calls them through this index. The stop's location is a site; the
// equipment and loading type decide the vehicle, its bay features and how long the bay is held; the
// primary reference number is the booking's TSR number.

export { fetchAvailableAppointments } from './ssc-fetch-available';
export { scheduleAppointment } from './ssc-schedule';
export { rescheduleAppointment } from './ssc-reschedule';
export { cancelAppointment } from './ssc-cancel';
export { fetchAppointmentDetails } from './ssc-details';
