import { ApiError, apiCall } from '../../../lib/api-client';
import type { Session } from '../session';
import { sessionOrChallenge } from './sign-in-with-password';

const RETRY_WINDOW_MS = 30_000;
const FIRST_BACKOFF_MS = 200;

/** Network failures and gateway errors are worth retrying; anything else is final. */
function isRetryable(error: unknown): boolean {
  return error instanceof ApiError && [0, 502, 503, 504].includes(error.status);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * POST /api/auth/token?grant_type=refresh_token. Spec §9: retryable failures back off
 * exponentially from 200 ms within a 30 s window; other failures are thrown at once.
 */
export async function refreshSession(refreshToken: string): Promise<Session> {
  const started = Date.now();
  for (let attempt = 0; ; attempt += 1) {
    try {
      return sessionOrChallenge(
        await apiCall('POST /api/auth/token', { query: { grant_type: 'refresh_token' }, body: { refresh_token: refreshToken }, anonymous: true }),
      );
    } catch (error) {
      const delay = FIRST_BACKOFF_MS * 2 ** attempt;
      if (!isRetryable(error) || Date.now() - started + delay > RETRY_WINDOW_MS) throw error;
      await sleep(delay);
    }
  }
}
