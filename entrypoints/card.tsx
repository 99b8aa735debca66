import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { HoverCard, type HoverCardProps } from '@/components/HoverCard';
import { CardWatchControl, type CardWatchApi } from '@/components/watchlist/CardWatchControl';
import type { Language } from '@/lib/core/i18n/language';
import { cardClient, type AwaitedCard } from '@/lib/protocol/card';
import { CARD_AHEAD_HASH, CARD_NONCE_PATTERN } from '@/lib/protocol/guarded/card';
import { CARD_MESSAGE_SOURCE, type CardFrameMessage } from '@/lib/protocol/guarded/card-frame';
import { backgroundClient } from '@/lib/protocol/pages';
import '@/assets/tailwind.css';

// Wiring only. The card comes from the background, claimed once with the nonce the content script
// gave this frame as its name (never from this page's URL).

const watchApi: CardWatchApi = {
  getWatch: (request) => backgroundClient.getWatch(request),
  watch: (request) => backgroundClient.watchLink(request),
  unwatch: (id) => backgroundClient.unwatchLink({ id }),
};

/**
 * A page loaded ahead of intent waits, showing nothing, until a card is drawn in it, and gets that
 * card with the wait when its snapshot came soon; a worker that restarts meanwhile drops the wait,
 * which is asked again (its routes are in storage.session).
 */
async function cardOfPageAhead(nonce: string): Promise<AwaitedCard> {
  if (!CARD_NONCE_PATTERN.test(nonce)) return { drawn: false };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const awaited = await cardClient.awaitCard({ nonce });
      // A card page like any other from now on (its address says so too).
      if (awaited.drawn) history.replaceState(null, '', location.pathname);
      return awaited;
    } catch {
      // asked again
    }
  }
  return { drawn: false };
}

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
  const claim = async () => (CARD_NONCE_PATTERN.test(nonce) ? cardClient.claimCard({ nonce }) : null);
  if (location.hash !== CARD_AHEAD_HASH) render(container, claim);
  // A card whose snapshot is still on its way is claimed now, showing at once that it loads meanwhile.
  else
    void cardOfPageAhead(nonce).then(
      (awaited) =>
        awaited.drawn &&
        render(container, awaited.claim ?? claim, {
          language: awaited.language,
          slow: !awaited.claim,
          openedAt: awaited.openedAt,
        }),
    );
});
