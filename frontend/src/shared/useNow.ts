import { useEffect, useState } from 'react';

/** The current time, ticking every `intervalMs` so relative times ('Just now', '5m ago') stay true. */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
