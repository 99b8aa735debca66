import type { GapSeverity, ReadinessLabel, RiskBand } from '@/lib/core/labels';
import {
  READINESS_TONE as READINESS_TONE_NAME,
  RISK_BAND_TONE,
  SEVERITY_TONE as SEVERITY_TONE_NAME,
  type Tone,
} from '@/lib/core/palette';

/**
 * Tailwind classes per tone (lib/core/palette.ts: the same colours as the `/share` page), so every
 * surface colours a label the same way. Written out whole: Tailwind finds classes by their text.
 */
export const TONE_CLASS: Readonly<Record<Tone, string>> = {
  red: 'bg-tone-red-bg text-tone-red-fg ring-tone-red-border',
  orange: 'bg-tone-orange-bg text-tone-orange-fg ring-tone-orange-border',
  amber: 'bg-tone-amber-bg text-tone-amber-fg ring-tone-amber-border',
  blue: 'bg-tone-blue-bg text-tone-blue-fg ring-tone-blue-border',
  green: 'bg-tone-green-bg text-tone-green-fg ring-tone-green-border',
  neutral: 'bg-tone-neutral-bg text-tone-neutral-fg ring-tone-neutral-border',
};

/** A tone's solid fill: bars, dots, lines. */
export const TONE_FILL: Readonly<Record<Tone, string>> = {
  red: 'bg-tone-red-solid',
  orange: 'bg-tone-orange-solid',
  amber: 'bg-tone-amber-solid',
  blue: 'bg-tone-blue-solid',
  green: 'bg-tone-green-solid',
  neutral: 'bg-tone-neutral-solid',
};

const tone = (name: Tone) => TONE_CLASS[name];

export const READINESS_TONE: Readonly<Record<ReadinessLabel, string>> = {
  Critical: tone(READINESS_TONE_NAME.Critical),
  'In Progress': tone(READINESS_TONE_NAME['In Progress']),
  'Good Standing': tone(READINESS_TONE_NAME['Good Standing']),
  'Regulator Ready': tone(READINESS_TONE_NAME['Regulator Ready']),
};

export const RISK_TONE: Readonly<Record<RiskBand, string>> = {
  high: tone(RISK_BAND_TONE.high),
  medium: tone(RISK_BAND_TONE.medium),
  low: tone(RISK_BAND_TONE.low),
  investor_ready: tone(RISK_BAND_TONE.investor_ready),
};

/** Gap severities as chips, as on the `/share` page. */
export const SEVERITY_TONE: Readonly<Record<GapSeverity, string>> = {
  critical: tone(SEVERITY_TONE_NAME.critical),
  high: tone(SEVERITY_TONE_NAME.high),
  medium: tone(SEVERITY_TONE_NAME.medium),
};

/** Catalog keys of the API's readiness labels (the English text equals the API's label). */
export { READINESS_LABEL_KEY } from '@/lib/core/vocabulary';
