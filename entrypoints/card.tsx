import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { HoverCard, type HoverCardProps } from '@/components/HoverCard';
import { warmUpCard } from '@/components/card-warm-up';
import { CardWatchControl, type CardWatchApi } from '@/components/watchlist/CardWatchControl';
import type { Language } from '@/lib/core/i18n/language';
import { awaitDrawnCard, claimOfDrawn } from '@/lib/protocol/card';
import { CARD_AHEAD_HASH } from '@/lib/protocol/guarded/card';
import { CARD_MESSAGE_SOURCE, type CardFrameMessage } from '@/lib/protocol/guarded/card-frame';
import { backgroundClient } from '@/lib/protocol/pages';
import '@/assets/tailwind.css';

// Wiring only. The card comes from the background, awaited once with the nonce the content script
// gave this frame as its name (never from this page's URL).

const watchApi: CardWatchApi = {
  getWatch: (request) => backgroundClient.getWatch(request),
  watch: (request) => backgroundClient.watchLink(request),
  unwatch: (id) => backgroundClient.unwatchLink({ id }),
};

function render(
  container: HTMLElement,
  claim: HoverCardProps['claim'],
  waited: { language?: Language; slow?: boolean; openedAt?: number | undefined } = {},
): void {
  const { language, slow = false, openedAt } = waited;
  /** The framing page's origin when the browser tells us (Chrome); size and close carry no data. */
  const parentOrigin = location.ancestorOrigins?.[0] ?? '*';
  const post = (message: CardFrameMessage) => window.parent.postMessage(message, parentOrigin);
  createRoot(container).render(
    <StrictMode>
      <HoverCard
        claim={claim}
        {...(language ? { language } : {})}
        slow={slow}
        {...(openedAt === undefined ? {} : { openedAt })}
        refreshSnapshot={backgroundClient.refreshSnapshot}
        onClose={(reason) => post({ source: CARD_MESSAGE_SOURCE, kind: 'close', reason })}
        onResize={(size) => post({ source: CARD_MESSAGE_SOURCE, kind: 'size', ...size })}
        onHover={(inside) => post({ source: CARD_MESSAGE_SOURCE, kind: 'hover', inside })}
        watchControl={(request, { onlyIfWatched }) => (
          <CardWatchControl request={request} api={watchApi} onlyIfWatched={onlyIfWatched} />
        )}
      />
    </StrictMode>,
  );
}

export default defineUnlistedScript(() => {
  // Read once and cleared: a page that navigates this frame to a page of its own would read the name there.
  const nonce = window.name;
  window.name = '';
  const container = document.getElementById('root');
  if (!container) return;
  const drawn = awaitDrawnCard(nonce);
  // A page opened for its card shows at once (Loading if its snapshot is slow); a page loaded ahead of
  // intent shows nothing until a card is drawn in it, and then that it loads if its snapshot is slow.
  if (location.hash !== CARD_AHEAD_HASH) {
    render(container, () => claimOfDrawn(drawn));
    return;
  }
  // While it waits for intent, the page renders a card once out of sight (its first render is its slowest).
  let waiting = true;
  requestIdleCallback(() => waiting && warmUpCard(document));
  void drawn.then((card) => {
    waiting = false;
    if (!card) return;
    // A card page like any other from now on (its address says so too).
    history.replaceState(null, '', location.pathname);
    render(container, card.claim, {
      language: card.language,
      slow: typeof card.claim === 'function',
      openedAt: card.openedAt,
    });
  });
});
