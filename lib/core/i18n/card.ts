import { snapshotEn } from './en/snapshot';
import { vocabularyEn } from './en/vocabulary';
import { snapshotFr } from './fr/snapshot';
import { vocabularyFr } from './fr/vocabulary';
import type { Catalogs, Translator } from './translator';

/**
 * The slices a snapshot's own view uses (its words and the vocabulary): the hover card page loads
 * these alone, not the options' or the popup's strings (its script budget, DESIGN "Budgets"). Every
 * other page's catalog holds them too, so the components that show a snapshot read them anywhere.
 */
const cardCatalogEn = { ...vocabularyEn, ...snapshotEn } as const;
export type CardCatalog = typeof cardCatalogEn;
export const cardCatalogs: Catalogs<CardCatalog> = { en: cardCatalogEn, fr: { ...vocabularyFr, ...snapshotFr } };
export type CardTranslator = Translator<CardCatalog>;
