import { useEffect, useState } from 'react';

/** How often relative times ("expires in 3 days", "retry in 2 min") are worked out again. */
const NOW_REFRESH_MS = 30_000;

/**
 * The current time for rendering, kept in state so that render stays pure and relative times move
 * on while a page stays open, every `everyMs` (a countdown: every second). A `fixed` time (tests,
 * screenshots) is returned as it is.
 */
export function useNow(fixed?: number, everyMs = NOW_REFRESH_MS): number {
  const [now, setNow] = useState(() => fixed ?? Date.now());
  useEffect(() => {
    if (fixed !== undefined) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [fixed, everyMs]);
  return fixed ?? now;
}
