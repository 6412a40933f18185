import type { Database } from '../../db/client';

/** An answer this recent counts: the node is busy, not cut off from its database. */
const FRESH_MS = 5_000;
/** How long readiness waits for a check when it has no fresh answer to go by. */
const CHECK_WAIT_MS = 1_500;

/**
 * Whether the database answers, for readiness: a busy node's pool queues `select 1` behind its
 * requests, and a balancer whose check times out takes the node out exactly when it is busiest
 * (with one node: every request then answers 503). So a check runs at most one at a time, in the
 * background, and an answer from the last few seconds counts; only without one does the caller wait
 * (briefly) for the check.
 */
export function databaseLiveness(database: Pick<Database, 'query'>, now: () => number = Date.now): () => Promise<boolean> {
  let lastAnswerAt = Number.NEGATIVE_INFINITY;
  let lastFailureAt = Number.NEGATIVE_INFINITY;
  let checking: Promise<void> | null = null;
  const check = () =>
    (checking ??= database
      .query('select 1')
      .then(
        () => void (lastAnswerAt = now()),
        () => void (lastFailureAt = now()),
      )
      .finally(() => (checking = null)));
  const isFresh = () => lastAnswerAt > lastFailureAt && now() - lastAnswerAt < FRESH_MS;
  return async () => {
    const running = check();
    if (isFresh()) return true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([running, new Promise<void>((resolve) => (timer = setTimeout(resolve, CHECK_WAIT_MS)))]);
    clearTimeout(timer);
    return isFresh();
  };
}
