import { formatRelative } from './format';
import type { vocabularyEn } from './i18n/en/vocabulary';
import type { Translator } from './i18n/translator';
import { REGULATORS, type AripStage, type ProductClassification, type ReadinessLabel, type RiskBand } from './labels';

/**
 * One vocabulary for every surface (card, badge, popup, side panel, watchlist, notifications, CSV,
 * `/share`), from the spec's label tables: "Readiness 93/100 · Regulator Ready", "Fundraising risk:
 * Low"; regulators, product classes and ARIP stages by name, with the code kept for a tooltip.
 * Framework-free and zod-free: any translator whose catalog holds the vocabulary slice will do (the
 * app's, the watchlist's, or the vocabulary slice alone for the badge).
 */

export type VocabularyCatalog = typeof vocabularyEn;
export type VocabularyTranslator = Translator<VocabularyCatalog>;

export const READINESS_LABEL_KEY = {
  Critical: 'snapshot.readiness.critical',
  'In Progress': 'snapshot.readiness.inProgress',
  'Good Standing': 'snapshot.readiness.goodStanding',
  'Regulator Ready': 'snapshot.readiness.regulatorReady',
} as const satisfies Readonly<Record<ReadinessLabel, keyof VocabularyCatalog>>;

export const RISK_BAND_NAME_KEY = {
  high: 'vocab.band.high',
  medium: 'vocab.band.medium',
  low: 'vocab.band.low',
  investor_ready: 'vocab.band.investor_ready',
} as const satisfies Readonly<Record<RiskBand, keyof VocabularyCatalog>>;

/** "Regulator Ready" */
export const readinessLabelName = ({ t }: VocabularyTranslator, label: ReadinessLabel): string => t(READINESS_LABEL_KEY[label]);

/** "Readiness 93/100 · Regulator Ready" */
export const readinessText = (i18n: VocabularyTranslator, score: number, label: ReadinessLabel): string =>
  i18n.t('vocab.readiness', { score, label: readinessLabelName(i18n, label) });

/** "Low": the band's name, under a "Fundraising risk" heading. */
export const riskBandName = ({ t }: VocabularyTranslator, band: RiskBand): string => t(RISK_BAND_NAME_KEY[band]);

/** "Fundraising risk: Low" */
export const riskText = (i18n: VocabularyTranslator, band: RiskBand): string =>
  i18n.t('vocab.risk', { band: riskBandName(i18n, band) });

/** A name to show, and the API's code to keep at hand (a tooltip). */
export interface NamedCode {
  name: string;
  code: string;
}

/** "Payment product" (code PAYMENT); null when the snapshot states none. */
export function productName({ t }: VocabularyTranslator, code: ProductClassification | null): NamedCode | null {
  return code === null ? null : { name: t(`snapshot.product.${code}`), code };
}

/** "Stage 4: AIP — Active" (code aip_active); null when the company is not in ARIP. */
export function aripStageName({ t }: VocabularyTranslator, code: AripStage | null): NamedCode | null {
  return code === null ? null : { name: t(`snapshot.arip.${code}`), code };
}

/** "Central Bank of Nigeria" (code CBN); a code not in our table is named as "Regulator code XYZ". */
export function regulatorName({ t }: VocabularyTranslator, code: string): NamedCode {
  const name = Object.hasOwn(REGULATORS, code) ? REGULATORS[code] : undefined;
  return { name: name ?? t('vocab.regulatorUnknown', { code }), code };
}

/**
 * Less than this ago, a past event happened "just now": the extension's clock and the service's can
 * disagree by seconds, and "refreshed in 2 seconds" is never true of the past.
 */
export const JUST_NOW_MS = 60_000;

/** When a past event happened: "just now", "5 minutes ago", "3 days ago"; never in the future. */
export function sinceText(i18n: VocabularyTranslator, at: number, now: number): string {
  return now - at < JUST_NOW_MS ? i18n.t('vocab.justNow') : formatRelative(at, now, i18n.locale);
}
