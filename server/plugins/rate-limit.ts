import type { RateLimitOptions } from '@fastify/rate-limit';
import type { AppContext } from '../context';

/**
 * Route config for a per-IP limit (`config: perIpLimit(ctx, 20)`); RATE_LIMIT_DISABLED turns every
 * limit off (end-to-end tests drive many sign-ins from one address).
 */
export function perIpLimit(ctx: AppContext, max: number, timeWindow = '1 minute'): { rateLimit?: RateLimitOptions } {
  return ctx.config.rateLimitDisabled
    ? {}
    : { rateLimit: { max, timeWindow, allowList: ctx.config.rateLimitAllowList } };
}
