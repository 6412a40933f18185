/** The e2e server's signing key (playwright.config.ts passes it as AUTH_SECRET; never a real deployment's), so a spec can derive a booking's arrival code. */
export const E2E_AUTH_SECRET = 'e2e-only-signing-key-not-for-production-0123456789';
