import type { FetchQueryOptions, QueryKey } from '@tanstack/react-query';
import { STORAGE_KEYS } from '../../domain/constants';
import { queryClient } from '../lib/query-client';
import { readJson } from '../lib/storage';
import { isSessionDueForRefresh, readStoredSession } from '../features/auth/session';
import { myOrganizationsQueryOptions } from '../features/org/api/get-my-organizations';
import { orgSitesQueryOptions } from '../features/org/api/get-org-sites';

// Issue 25: an organization screen opened from its address asked for its data in a chain — the
// session check, then the organizations (keyed by the user), then the sites and the screen's own
// data (keyed by the organization) — each after the one before had rendered. The router's
// loaders start them all with the screen's code instead, from what this browser stored: the
// session's user and the organization chosen last. A guess that turns out wrong (another user
// signs in, the organization is gone) costs one unused answer; the screens still ask for what
// they need under the same keys, and get the answer already in flight or in the cache.

/** An answer younger than this is not asked for again by a loader (the screen's own query decides beyond). */
const PREFETCH_FRESH_MS = 10_000;

/** Starts a query unless a fresh answer is cached or one is in flight. */
export function prefetch<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(options: FetchQueryOptions<TQueryFnData, TError, TData, TQueryKey>): void {
  void queryClient.prefetchQuery({ ...options, staleTime: PREFETCH_FRESH_MS });
}

/**
 * Prefetches the organization area's own answers and answers the organization chosen last, or
 * null when there is no usable stored session (then nothing is asked: the sign-in comes first).
 */
export function prefetchOrgArea(): string | null {
  const session = readStoredSession();
  if (!session || isSessionDueForRefresh(session)) return null;
  prefetch(myOrganizationsQueryOptions(session.user.id));
  const orgId = readJson<{ id?: unknown }>(STORAGE_KEYS.selectedOrg)?.id;
  if (typeof orgId !== 'string' || orgId === '') return null;
  prefetch(orgSitesQueryOptions(orgId));
  return orgId;
}

/** A route loader for an organization screen: the area's answers, and the screen's own for the organization chosen last. */
export function orgScreenLoader(screenQueries?: (orgId: string) => void): () => null {
  return () => {
    const orgId = prefetchOrgArea();
    if (orgId) screenQueries?.(orgId);
    return null;
  };
}
