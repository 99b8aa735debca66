import { ANNOTATOR_MATCHES } from '@/lib/content/matches';
import { startAnnotator } from '@/lib/content/start';

// Wiring only: the engine lives in lib/content.
export default defineContentScript({
  matches: ANNOTATOR_MATCHES,
  runAt: 'document_idle',
  main(ctx) {
    void startAnnotator(ctx).catch((error: unknown) => {
      // Without settings there is nothing to recognise; the page is left untouched.
      if (ctx.isValid) console.debug('[Compliance Lens] annotator not started:', error);
    });
  },
});
