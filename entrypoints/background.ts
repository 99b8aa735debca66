import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { createBackground } from '@/lib/background';

// Wiring only: lib/background/create-background.ts builds the worker.
export default defineBackground(() => {
  createBackground(import.meta.env.FIREFOX ? { ...browser, sidePanel: undefined } : browser, {
    fetch: (input, init) => fetch(input, init),
    isOnline: () => navigator.onLine,
  });
});
