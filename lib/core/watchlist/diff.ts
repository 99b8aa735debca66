import { GAP_SEVERITY_RANK } from '../labels';
import type { ScoreSample, WatchChange, WatchEndCode, WatchPoint } from './types';

/**
 * Change detection between two refreshes of one watched link: pure, so the background (which decides
 * what to notify) and the pages (which show each row's changes) compute the same thing.
 */

/** A link this close to its expiry is worth a warning (once, when it enters the window). */
export const EXPIRY_WARNING_MS = 48 * 3600_000;
/** A readiness or fundraise move of at least this many points is worth a notification. */
export const NOTABLE_SCORE_DELTA = 5;
const WEEK_MS = 7 * 24 * 3600_000;

function expiresSoon(point: WatchPoint): boolean {
  const left = Date.parse(point.expiresAt) - point.at;
  return left > 0 && left <= EXPIRY_WARNING_MS;
}

/** Every change from `previous` to `next`, most important kinds first. The first point has none. */
export function diffPoints(previous: WatchPoint | null, next: WatchPoint): WatchChange[] {
  if (previous === null) return [];
  const changes: WatchChange[] = [];
  if (previous.readinessLabel !== next.readinessLabel) {
    changes.push({ kind: 'label', from: previous.readinessLabel, to: next.readinessLabel });
  }
  if (previous.riskBand !== next.riskBand) changes.push({ kind: 'band', from: previous.riskBand, to: next.riskBand });
  if (previous.readinessScore !== next.readinessScore) {
    const delta = next.readinessScore - previous.readinessScore;
    changes.push({ kind: 'readiness', from: previous.readinessScore, to: next.readinessScore, delta });
  }
  if (previous.fundraiseScore !== next.fundraiseScore) {
    const delta = next.fundraiseScore - previous.fundraiseScore;
    changes.push({ kind: 'fundraise', from: previous.fundraiseScore, to: next.fundraiseScore, delta });
  }
  changes.push(...diffGaps(previous, next));
  if (previous.packHash !== next.packHash || previous.packGeneratedAt !== next.packGeneratedAt) {
    changes.push({ kind: 'new-pack', hash: next.packHash, generatedAt: next.packGeneratedAt });
  }
  if (expiresSoon(next) && (!expiresSoon(previous) || previous.expiresAt !== next.expiresAt)) {
    changes.push({ kind: 'expiring', expiresAt: next.expiresAt });
  }
  if (previous.checklistPct !== next.checklistPct) {
    changes.push({ kind: 'checklist', from: previous.checklistPct, to: next.checklistPct });
  }
  if (previous.aripStage !== next.aripStage) changes.push({ kind: 'arip', from: previous.aripStage, to: next.aripStage });
  if (previous.productClassification !== next.productClassification) {
    changes.push({ kind: 'classification', from: previous.productClassification, to: next.productClassification });
  }
  return changes;
}

/** Gaps are matched by title: new ones, resolved ones (most severe first), and ones whose severity moved. */
function diffGaps(previous: WatchPoint, next: WatchPoint): WatchChange[] {
  const before = new Map(previous.gaps.map((gap) => [gap.title.trim(), gap]));
  const after = new Map(next.gaps.map((gap) => [gap.title.trim(), gap]));
  const bySeverity = <T extends { severity: keyof typeof GAP_SEVERITY_RANK }>(a: T, b: T) =>
    GAP_SEVERITY_RANK[a.severity] - GAP_SEVERITY_RANK[b.severity];
  const changes: WatchChange[] = [];
  for (const gap of [...after.values()].sort(bySeverity)) {
    const old = before.get(gap.title.trim());
    if (!old) changes.push({ kind: 'gap-added', title: gap.title, severity: gap.severity });
    else if (old.severity !== gap.severity) {
      changes.push({ kind: 'gap-severity', title: gap.title, from: old.severity, to: gap.severity });
    }
  }
  // The API lists at most 3 gaps: with a full list, a gap that left it may still be open.
  const displaced = next.gaps.length >= 3;
  for (const gap of [...before.values()].sort(bySeverity)) {
    if (!after.has(gap.title.trim())) changes.push({ kind: 'gap-resolved', title: gap.title, severity: gap.severity, displaced });
  }
  return changes;
}

export function endChange(code: WatchEndCode): WatchChange {
  return { kind: 'ended', code };
}

/** Worth a browser notification: what an investor would want to hear about without looking. */
export function isNotable(change: WatchChange): boolean {
  switch (change.kind) {
    case 'label':
    case 'band':
    case 'new-pack':
    case 'expiring':
    case 'ended':
      return true;
    case 'readiness':
    case 'fundraise':
      return Math.abs(change.delta) >= NOTABLE_SCORE_DELTA;
    case 'gap-added':
      return change.severity !== 'medium';
    case 'gap-severity':
      return change.to !== 'medium';
    case 'gap-resolved':
      return change.severity !== 'medium' && !change.displaced;
    case 'checklist':
    case 'arip':
    case 'classification':
      return false;
  }
}

/** "+6", "−3" (a real minus sign), "0": the same in English and French. */
export function formatDelta(delta: number): string {
  if (delta > 0) return `+${delta}`;
  if (delta < 0) return `\u2212${Math.abs(delta)}`;
  return '0';
}

/** The readiness change since the previous refresh, or null with fewer than two points. */
export function changeSincePrevious(previous: WatchPoint | null, latest: WatchPoint | null): number | null {
  return previous && latest ? latest.readinessScore - previous.readinessScore : null;
}

/**
 * The readiness change since a week before the latest sample: against the newest sample at least a
 * week older. null while the history is shorter than a week.
 */
export function changeSinceWeekBefore(series: readonly ScoreSample[], periodMs = WEEK_MS): number | null {
  const latest = series.at(-1);
  if (!latest) return null;
  let baseline: ScoreSample | undefined;
  for (const sample of series) {
    if (sample.at <= latest.at - periodMs) baseline = sample;
  }
  return baseline ? latest.score - baseline.score : null;
}
