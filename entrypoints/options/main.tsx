import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserOptionsApi } from '@/components/options/api';
import { OptionsApp } from '@/components/options/OptionsApp';
import '@/assets/tailwind.css';

// Wiring only: the page lives in components/options.
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <OptionsApp api={createBrowserOptionsApi()} />
    </StrictMode>,
  );
}
