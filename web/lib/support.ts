/** Where people are told to write for help on the sign-in screens. */
export const SUPPORT_EMAIL = 'support@baywise.test';
