/** Lazily builds a value on first use and keeps it for the container's lifetime. */
export function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/**
 * once() for an async value, except that a failed attempt is forgotten: the next call tries
 * again instead of the container failing for its whole lifetime. Concurrent callers share one attempt.
 */
export function onceAsync<T>(make: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    if (!pending) {
      const attempt = Promise.resolve().then(make);
      pending = attempt;
      attempt.catch(() => {
        if (pending === attempt) pending = undefined;
      });
    }
    return pending;
  };
}
