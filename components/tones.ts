import type { GapSeverity, ReadinessLabel, RiskBand } from '@/lib/core/labels';
import { type en } from '@/lib/core/i18n/en';

/** Tailwind classes per label, so every surface colours a label the same way. */
export const READINESS_TONE: Readonly<Record<ReadinessLabel, string>> = {
  Critical: 'bg-red-50 text-red-800 ring-red-600/30 dark:bg-red-950 dark:text-red-200 dark:ring-red-400/40',
  'In Progress': 'bg-amber-50 text-amber-900 ring-amber-600/30 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-400/40',
  'Good Standing': 'bg-sky-50 text-sky-900 ring-sky-600/30 dark:bg-sky-950 dark:text-sky-200 dark:ring-sky-400/40',
  'Regulator Ready':
    'bg-emerald-50 text-emerald-900 ring-emerald-600/30 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-400/40',
};

export const RISK_TONE: Readonly<Record<RiskBand, string>> = {
  high: 'bg-red-50 text-red-800 ring-red-600/30 dark:bg-red-950 dark:text-red-200 dark:ring-red-400/40',
  medium: 'bg-amber-50 text-amber-900 ring-amber-600/30 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-400/40',
  low: 'bg-sky-50 text-sky-900 ring-sky-600/30 dark:bg-sky-950 dark:text-sky-200 dark:ring-sky-400/40',
  investor_ready:
    'bg-emerald-50 text-emerald-900 ring-emerald-600/30 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-400/40',
};

/** Catalog keys of the API's readiness labels (the English text equals the API's label). */
export { READINESS_LABEL_KEY } from '@/lib/core/vocabulary';

/**
 * "High risk" … "Investor ready": the card's band keys until it takes lib/core/vocabulary.ts's
 * "Fundraising risk: High" (riskText, riskBandName); the lists use those already.
 */
export const RISK_BAND_KEY = {
  high: 'snapshot.riskBand.high',
  medium: 'snapshot.riskBand.medium',
  low: 'snapshot.riskBand.low',
  investor_ready: 'snapshot.riskBand.investor_ready',
} as const satisfies Readonly<Record<RiskBand, keyof typeof en>>;

export const SEVERITY_TONE: Readonly<Record<GapSeverity, string>> = {
  critical: 'bg-red-600 text-white dark:bg-red-500 dark:text-red-950',
  high: 'bg-orange-700 text-white dark:bg-orange-400 dark:text-orange-950',
  medium: 'bg-amber-200 text-amber-950 dark:bg-amber-300 dark:text-amber-950',
};
