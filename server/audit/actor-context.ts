import { AsyncLocalStorage } from 'node:async_hooks';

// Who is really behind the current request, for the audit log (decision 017). The auth plugin runs
// each authenticated request's handler inside this context; writeAudit reads it, so every entry
// written while a platform user acts as a member names both — without any call site passing it.

export type Impersonator = { id: string; email: string };

type RequestActor = { impersonator: Impersonator | null };

const storage = new AsyncLocalStorage<RequestActor>();

/** Runs `fn` (and everything it awaits or schedules) with the request's impersonator. */
export function runWithRequestActor<T>(actor: RequestActor, fn: () => T): T {
  return storage.run(actor, fn);
}

/** The platform user acting as the signed-in user in the current request, if any. */
export function currentImpersonator(): Impersonator | null {
  return storage.getStore()?.impersonator ?? null;
}
