import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { servePageLinks, startAnnotator } from '@/lib/content/annotator';
import { startLifetime } from '@/lib/content/shared/lifetime';

// Wiring only: the engine and the page-links answers live in lib/content/annotator. An unlisted
// script, declared in the manifest by wxt.config.ts (the top frame; the background injects it into a
// subframe once that frame holds a share link), so the match list is not in this bundle.
export default defineUnlistedScript(() => {
  const lifetime = startLifetime('annotator');
  const annotator = startAnnotator(lifetime);
  void annotator.catch((error: unknown) => {
    // Without settings there is nothing to recognise; the page is left untouched.
    if (lifetime.isAlive()) console.debug('[Compliance Lens] annotator not started:', error);
  });
  // The popup and side panel list what was found here (`listPageLinks`, `pageLinksChanged`).
  servePageLinks({ source: annotator.catch(() => null), signal: lifetime.signal });
});
