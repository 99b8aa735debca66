import { MAX_PEEK_BATCH } from '../../core/limits';
import type { LinkState, LinkStates } from './link-states';
import type { EngineConfig } from './types';

/** Peek messages in flight at once (each costs main-thread time on the page; see MAX_PEEK_BATCH). */
const PEEK_CONCURRENCY = 2;

/**
 * Asks the background's cache about newly found links (never a fetch, so never a view), batched:
 * requests queue up during a slice of DOM work and go out after it. Returns the function that
 * queues a link's state.
 */
export function createPeekQueue(
  { client }: EngineConfig,
  states: LinkStates,
  isStopped: () => boolean,
): (state: LinkState) => void {
  const queue: LinkState[] = [];
  let inFlight = 0;
  let scheduled = false;

  function send(): void {
    while (!isStopped() && inFlight < PEEK_CONCURRENCY && queue.length > 0) {
      // New links, and loaded ones to be worded again; never one whose card is loading it now.
      const batch = queue.splice(0, MAX_PEEK_BATCH).filter((state) => state.view.state !== 'loading');
      if (batch.length === 0) continue;
      inFlight += 1;
      client
        .peekMany(batch.map((state) => state.request))
        .then((results) => {
          batch.forEach((state, index) => {
            const result = results[index];
            if (result && !isStopped() && state.view.state !== 'loading') states.show(state, result);
          });
        })
        .catch(() => {
          // A failed peek just leaves the badges idle: hovering still works.
        })
        .finally(() => {
          inFlight -= 1;
          send();
        });
    }
  }

  return (state) => {
    queue.push(state);
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      send();
    });
  };
}
