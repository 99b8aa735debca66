import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserPageLinksApi } from '@/components/page-links/api';
import { createBrowserWatchlistApi } from '@/components/watchlist/api';
import { SidePanelApp } from '@/components/sidepanel/SidePanelApp';
import '@/assets/tailwind.css';

// Wiring only: the side panel (Chrome) / sidebar (Firefox) lives in components/sidepanel.
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <SidePanelApp
        api={createBrowserPageLinksApi()}
        watchlist={createBrowserWatchlistApi()}
        initialView={location.hash === '#watchlist' ? 'watchlist' : 'page'}
      />
    </StrictMode>,
  );
}
