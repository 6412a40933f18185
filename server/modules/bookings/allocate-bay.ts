// The SSC module's imports of the booking paths, which lived in this file before it was split
// (issue 20 item 7): server/modules/ssc is changed on another branch, so this re-export stays until
// it imports org-rules.ts, booking-candidates.ts, load-lock.ts and booking-errors.ts directly.
// Nothing else imports this file.
export { candidatesToMove } from './booking-candidates';
export { NO_AVAILABLE_BAY } from '../../../domain/booking-messages';
export { loadLockKey, lockLoad } from './load-lock';
export { orgRules } from './org-rules';
