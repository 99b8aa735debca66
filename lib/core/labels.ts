/**
 * The label tables of the compliance-status API (spec part 2), defined once and imported by both the
 * extension and the server. Where the spec says "not shown", the choice is ours and is recorded in
 * docs/api-decisions.md.
 */

export const API_VERSION = '2026-06-18';

export const READINESS_LABELS = ['Critical', 'In Progress', 'Good Standing', 'Regulator Ready'] as const;
export type ReadinessLabel = (typeof READINESS_LABELS)[number];

/** Inclusive score ranges, spec part 2 "Readiness score labels". */
export const READINESS_RANGES: readonly { label: ReadinessLabel; min: number; max: number }[] = [
  { label: 'Critical', min: 0, max: 40 },
  { label: 'In Progress', min: 41, max: 70 },
  { label: 'Good Standing', min: 71, max: 90 },
  { label: 'Regulator Ready', min: 91, max: 100 },
];

export const RISK_BANDS = ['high', 'medium', 'low', 'investor_ready'] as const;
export type RiskBand = (typeof RISK_BANDS)[number];

/** Spec part 2 "Fundraising risk bands"; used as `fundraise_risk_label`. */
export const RISK_BAND_MEANINGS: Readonly<Record<RiskBand, string>> = {
  high: 'Significant regulatory gaps; high investment risk',
  medium: 'Material gaps remain; proceed with enhanced due diligence',
  low: 'Minor gaps; generally investable from a regulatory perspective',
  investor_ready: 'Strong posture for the stated product type',
};

/** Our choice (the spec does not show the mapping): inclusive fundraise-score ranges per band. */
export const RISK_BAND_RANGES: readonly { band: RiskBand; min: number; max: number }[] = [
  { band: 'high', min: 0, max: 39 },
  { band: 'medium', min: 40, max: 64 },
  { band: 'low', min: 65, max: 84 },
  { band: 'investor_ready', min: 85, max: 100 },
];

export const GAP_SEVERITIES = ['critical', 'high', 'medium'] as const;
export type GapSeverity = (typeof GAP_SEVERITIES)[number];

/** Lower rank sorts first: critical > high > medium. */
export const GAP_SEVERITY_RANK: Readonly<Record<GapSeverity, number>> = { critical: 0, high: 1, medium: 2 };

export const ARIP_STAGES = {
  initial_assessment: 'Stage 1: Initial Assessment',
  eligibility_notification: 'Stage 2: Eligibility Notification',
  formal_application: 'Stage 3: Formal Application',
  aip_active: 'Stage 4: AIP — Active',
  transition_to_registration: 'Stage 5: Transition to Registration',
} as const;
export type AripStage = keyof typeof ARIP_STAGES;
export const ARIP_STAGE_CODES = Object.keys(ARIP_STAGES) as [AripStage, ...AripStage[]];

export const PRODUCT_CLASSIFICATIONS = {
  DAX: 'Digital Asset Exchange',
  DAOP: 'Digital Asset Offering Platform',
  DAC: 'Digital Asset Custodian',
  DAI: 'Digital Asset Intermediary',
  AVASP: 'Ancillary VASP',
  DAPO: 'Digital Assets Platform Operator',
  RATOP: 'Real-world Assets Tokenization Platform',
  PAYMENT: 'Payment product',
  HYBRID: 'Hybrid (multiple categories)',
} as const;
export type ProductClassification = keyof typeof PRODUCT_CLASSIFICATIONS;
export const PRODUCT_CLASSIFICATION_CODES = Object.keys(PRODUCT_CLASSIFICATIONS) as [
  ProductClassification,
  ...ProductClassification[],
];

/**
 * Regulator codes that snapshots carry and the regulator's official name (in its own language). The
 * spec lists none ("e.g. SEC_NIGERIA, CBN appear as values"): this table is ours
 * (docs/api-decisions.md "Regulator names"); a code not in it is shown as the code.
 */
export const REGULATORS: Readonly<Record<string, string>> = {
  SEC_NIGERIA: 'Securities and Exchange Commission, Nigeria',
  CBN: 'Central Bank of Nigeria',
  NFIU: 'Nigerian Financial Intelligence Unit',
  NDPC: 'Nigeria Data Protection Commission',
  AMF_UMOA: 'Autorité des marchés financiers de l’UMOA',
  BCEAO: 'Banque centrale des États de l’Afrique de l’Ouest',
  CBK: 'Central Bank of Kenya',
  CMA_KENYA: 'Capital Markets Authority, Kenya',
  ODPC: 'Office of the Data Protection Commissioner, Kenya',
  SEC_GHANA: 'Securities and Exchange Commission, Ghana',
  BOG: 'Bank of Ghana',
  FSCA: 'Financial Sector Conduct Authority, South Africa',
  SARB: 'South African Reserve Bank',
  FIC: 'Financial Intelligence Centre, South Africa',
};

function assertScore(score: number): void {
  if (!Number.isInteger(score) || score < 0 || score > 100) {
    throw new RangeError(`score must be an integer from 0 to 100, got ${score}`);
  }
}

export function readinessLabelFor(score: number): ReadinessLabel {
  assertScore(score);
  const range = READINESS_RANGES.find((r) => score >= r.min && score <= r.max);
  if (!range) throw new RangeError(`no readiness range for ${score}`);
  return range.label;
}

export function riskBandFor(fundraiseScore: number): RiskBand {
  assertScore(fundraiseScore);
  const range = RISK_BAND_RANGES.find((r) => fundraiseScore >= r.min && fundraiseScore <= r.max);
  if (!range) throw new RangeError(`no risk band for ${fundraiseScore}`);
  return range.band;
}

/** Rounded down, so a checklist is never shown as 100% while an item is still open. */
export function checklistCompletionPct(complete: number, total: number): number {
  if (total <= 0) return 0;
  return Math.floor((Math.min(complete, total) / total) * 100);
}
