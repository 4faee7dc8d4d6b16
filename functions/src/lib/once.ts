/** Lazily builds a value on first use and keeps it for the container's lifetime. */
export function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
