import { describe, expect, it } from 'vitest';
import { isSessionDueForRefresh, type Session } from './session';

const session = (expiresAtSeconds: number): Session => ({
  access_token: 'a',
  refresh_token: 'r',
  token_type: 'bearer',
  expires_in: 3600,
  expires_at: expiresAtSeconds,
  user: { id: 'u', email: 'u@example.test', fullName: null, platformRole: null },
});

describe('isSessionDueForRefresh (spec §9: 30 s ticks, refresh when 3 or fewer remain)', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  const inSeconds = (s: number) => now / 1000 + s;

  it('is not due with more than 90 s left', () => {
    expect(isSessionDueForRefresh(session(inSeconds(91)), now)).toBe(false);
  });

  it('is due with 90 s or less left, and once expired', () => {
    expect(isSessionDueForRefresh(session(inSeconds(90)), now)).toBe(true);
    expect(isSessionDueForRefresh(session(inSeconds(5)), now)).toBe(true);
    expect(isSessionDueForRefresh(session(inSeconds(-10)), now)).toBe(true);
  });
});
