/**
 * Wraps `run` so that a call made while it runs does not start a second run alongside, but one more
 * after it: any number of calls during a run cost one more run in all. Each call's promise settles
 * once a run that started after the call has finished. A failed run is not retried (the next call
 * runs it again).
 */
export function coalesce(run: () => Promise<unknown>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  return () => {
    if (running !== null) {
      again = true;
      return running;
    }
    const loop = async () => {
      try {
        do {
          again = false;
          await run().catch(() => undefined);
        } while (again);
      } finally {
        running = null;
      }
    };
    running = loop();
    return running;
  };
}
