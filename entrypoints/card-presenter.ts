import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { registerCardPresenter } from '@/lib/content/card-presenter';

// Wiring only: injected by the background into a frame whose annotator first needs a card
// (lib/background `loadCardPresenter`); the annotator then creates its card with it.
export default defineUnlistedScript(() => registerCardPresenter());
