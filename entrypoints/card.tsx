import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { HoverCard } from '@/components/HoverCard';
import { CardWatchControl, type CardWatchApi } from '@/components/watchlist/CardWatchControl';
import { cardClient } from '@/lib/protocol/card';
import { CARD_NONCE_PATTERN } from '@/lib/protocol/guarded/card';
import { CARD_MESSAGE_SOURCE, type CardFrameMessage } from '@/lib/protocol/guarded/card-frame';
import { backgroundClient } from '@/lib/protocol/pages';
import '@/assets/tailwind.css';

// Wiring only. The card comes from the background, claimed once with the nonce the content script
// gave this frame as its name (never from this page's URL).

/** The framing page's origin when the browser tells us (Chrome); size and close carry no data. */
const parentOrigin = location.ancestorOrigins?.[0] ?? '*';
const post = (message: CardFrameMessage) => window.parent.postMessage(message, parentOrigin);
const onClose = (reason: 'escape' | 'button') => post({ source: CARD_MESSAGE_SOURCE, kind: 'close', reason });
const onResize = (size: { width: number; height: number }) => post({ source: CARD_MESSAGE_SOURCE, kind: 'size', ...size });
const onHover = (inside: boolean) => post({ source: CARD_MESSAGE_SOURCE, kind: 'hover', inside });
// Read once and cleared: a page that navigates this frame to a page of its own would read the name there.
const nonce = window.name;
window.name = '';
const claim = async () => (CARD_NONCE_PATTERN.test(nonce) ? cardClient.claimCard({ nonce }) : null);
const watchApi: CardWatchApi = {
  getWatch: (request) => backgroundClient.getWatch(request),
  watch: (request) => backgroundClient.watchLink(request),
  unwatch: (id) => backgroundClient.unwatchLink({ id }),
};

export default defineUnlistedScript(() => {
  const container = document.getElementById('root');
  if (!container) return;
  createRoot(container).render(
    <StrictMode>
      <HoverCard
        claim={claim}
        refreshSnapshot={backgroundClient.refreshSnapshot}
        onClose={onClose}
        onResize={onResize}
        onHover={onHover}
        watchControl={(request) => <CardWatchControl request={request} api={watchApi} />}
      />
    </StrictMode>,
  );
});
