import { useEffect, useState, useSyncExternalStore } from "react";

/**
 * The current time, re-read every `intervalMs`, for "2 min ago" and countdowns. One timer per
 * list (pass `now` down to the rows) rather than one per row.
 */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

const subscribeNothing = () => () => {};

/**
 * false while server-rendering and hydrating, true after: for output that depends on the browser's
 * clock or time zone throughout (a chart), where silencing one text node is not enough.
 */
export function useIsClient(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
}
