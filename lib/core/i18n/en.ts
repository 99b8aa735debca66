import { badgeEn } from './en/badge';
import { optionsEn } from './en/options';
import { popupEn } from './en/popup';
import { snapshotEn } from './en/snapshot';
import { vocabularyEn } from './en/vocabulary';
import { watchlistEn } from './en/watchlist';

/** The whole English catalog: the source of truth for keys and placeholders. */
export const en = { ...badgeEn, ...vocabularyEn, ...snapshotEn, ...optionsEn, ...popupEn, ...watchlistEn } as const;
export type AppCatalog = typeof en;
export type AppMessageKey = keyof AppCatalog;
