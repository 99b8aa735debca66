/** The slice of a browser event (`browser.alarms.onAlarm`, …) that listening needs. */
export interface BrowserEvent<Listener> {
  addListener(listener: Listener): void;
  removeListener(listener: Listener): void;
}

/** Adds `listener` to `event` until `signal` aborts. */
export function listenWhile<Listener>(signal: AbortSignal, event: BrowserEvent<Listener>, listener: Listener): void {
  if (signal.aborted) return;
  event.addListener(listener);
  signal.addEventListener('abort', () => event.removeListener(listener), { once: true });
}
