import { READINESS_LABELS, RISK_BANDS, type ReadinessLabel, type RiskBand } from './labels';
import { TONES, type Tone } from './palette';
import { SNAPSHOT_ERROR_CODES, type SnapshotErrorCode } from './result-codes';

/**
 * Hand-written, strict checks for the few shapes the content script receives. Not zod: zod/mini alone
 * is ~5 KB gzip of the 15 KB content-script budget (measured), and these checks only need a handful
 * of fields. Extension pages and the background keep validating with the full zod schemas.
 */

export type Json = unknown;

export function isRecord(value: Json): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isString(value: Json, maxLength = 4096): value is string {
  return typeof value === 'string' && value.length <= maxLength;
}

export function isFiniteNumber(value: Json): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

export function isScore(value: Json): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 100;
}

export function isReadinessLabel(value: Json): value is ReadinessLabel {
  return (READINESS_LABELS as readonly unknown[]).includes(value);
}

export function isRiskBand(value: Json): value is RiskBand {
  return (RISK_BANDS as readonly unknown[]).includes(value);
}

export function isStringArray(value: Json, maxItems = 100): value is string[] {
  return Array.isArray(value) && value.length <= maxItems && value.every((item) => isString(item));
}

export function isTone(value: Json): value is Tone {
  return (TONES as readonly unknown[]).includes(value);
}

export function isErrorCode(value: Json): value is SnapshotErrorCode {
  return (SNAPSHOT_ERROR_CODES as readonly unknown[]).includes(value);
}

/** Epoch milliseconds as the result schema has them: a non-negative safe integer. */
export function isEpochMs(value: Json): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

const TIMESTAMP = /^(\d{4}-\d\d-\d\d)T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** What lib's zod `timestampSchema` accepts: ISO 8601 with seconds and a zone, on a real calendar day. */
export function isTimestamp(value: Json): value is string {
  const day = typeof value === 'string' ? TIMESTAMP.exec(value)?.[1] : undefined;
  if (day === undefined) return false;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
}
