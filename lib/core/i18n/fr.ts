import type { en } from './en';
import { badgeFr } from './fr/badge';
import { optionsFr } from './fr/options';
import { popupFr } from './fr/popup';
import { snapshotFr } from './fr/snapshot';
import { vocabularyFr } from './fr/vocabulary';
import { watchlistFr } from './fr/watchlist';

/** A key missing here (or in a slice) fails typecheck. */
export const fr: Record<keyof typeof en, string> = {
  ...badgeFr,
  ...vocabularyFr,
  ...snapshotFr,
  ...optionsFr,
  ...popupFr,
  ...watchlistFr,
};
