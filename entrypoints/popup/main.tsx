import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserPageLinksApi } from '@/components/page-links/api';
import { createBrowserWatchlistApi } from '@/components/watchlist/api';
import { PopupApp } from '@/components/popup/PopupApp';
import '@/assets/tailwind.css';

// Wiring only: the popup lives in components/popup.
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <PopupApp api={createBrowserPageLinksApi()} watchlist={createBrowserWatchlistApi()} />
    </StrictMode>,
  );
}
