import { snapshotEn } from './en/snapshot';
import { vocabularyEn } from './en/vocabulary';
import { watchlistEn } from './en/watchlist';
import { snapshotFr } from './fr/snapshot';
import { vocabularyFr } from './fr/vocabulary';
import { watchlistFr } from './fr/watchlist';
import type { Catalogs, Translator } from './translator';

/**
 * The slices the watchlist's texts use (its own, the vocabulary and the snapshot's), so the background words
 * its notifications without bundling the options and popup strings.
 */
const watchlistCatalogEn = { ...vocabularyEn, ...snapshotEn, ...watchlistEn } as const;
export type WatchlistCatalog = typeof watchlistCatalogEn;
export const watchlistCatalogs: Catalogs<WatchlistCatalog> = {
  en: watchlistCatalogEn,
  fr: { ...vocabularyFr, ...snapshotFr, ...watchlistFr },
};

/** What change descriptions need: any translator over a catalog with these keys (the pages pass theirs). */
export type WatchlistTranslator = Translator<WatchlistCatalog>;
