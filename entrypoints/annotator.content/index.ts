import { defineContentScript } from 'wxt/utils/define-content-script';
import { servePageLinks, startAnnotator } from '@/lib/content/annotator';

// Wiring only: the engine and the page-links answers live in lib/content/annotator.
export default defineContentScript({
  // Declared in the manifest by wxt.config.ts (the top frame; the background injects it into a
  // subframe once that frame holds a share link), so the match list is not in this bundle.
  registration: 'runtime',
  // WXT would announce each start to the page with a window message naming the extension's id.
  noScriptStartedPostMessage: true,
  main(ctx) {
    const annotator = startAnnotator(ctx);
    void annotator.catch((error: unknown) => {
      // Without settings there is nothing to recognise; the page is left untouched.
      if (ctx.isValid) console.debug('[Compliance Lens] annotator not started:', error);
    });
    // The popup and side panel list what was found here (`listPageLinks`, `pageLinksChanged`).
    servePageLinks({ source: annotator.catch(() => null), signal: ctx.signal });
  },
});
