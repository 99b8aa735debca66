/**
 * From a follow's baseline (what it last told its partner) and the company's state now to typed
 * events: the extension's diff engine (`diffPoints`) and `diffRegulators` say what changed, the
 * watchlist's own sentences (`describeChange`) say it in words, and the follow's rules say what is
 * sent. Pure: no database, no clock.
 *
 * A change a rule holds back is not forgotten: the new baseline keeps that field as it was, so the
 * next event reports the whole move since the last one sent ("70 → 76" after 70 → 72 → 76 with a
 * threshold of 5).
 */
import { GAP_SEVERITY_RANK, type GapSeverity } from '../../../lib/core/labels';
import { createTranslator } from '../../../lib/core/i18n/translator';
import { watchlistCatalogs } from '../../../lib/core/i18n/watchlist';
import { describeChange } from '../../../lib/core/watchlist/describe';
import { diffPoints } from '../../../lib/core/watchlist/diff';
import { diffRegulators, type RegulatorChange, type RegulatorSet } from '../../../lib/core/watchlist/regulators';
import type { WatchChange, WatchGap, WatchPoint } from '../../../lib/core/watchlist/types';
import { regulatorName } from '../../../lib/core/vocabulary';
import { otherRegulators } from '../../snapshots/profile';
import type { EventChange, FollowRules, SnapshotEventType } from '../schemas';
import type { FollowState } from './state';

/** Events are worded in the service's language. */
const english = createTranslator(watchlistCatalogs, 'en');

export interface PendingEvent {
  type: SnapshotEventType;
  changes: EventChange[];
}

type Change = WatchChange | RegulatorChange;

function typeOf(change: Change): SnapshotEventType | null {
  switch (change.kind) {
    case 'readiness':
    case 'fundraise':
    case 'checklist':
      return 'snapshot.scores_changed';
    case 'label':
    case 'band':
      return 'snapshot.band_changed';
    case 'gap-added':
      return 'snapshot.gap_opened';
    case 'gap-resolved':
      return 'snapshot.gap_resolved';
    case 'gap-severity':
      return 'snapshot.gap_severity_changed';
    case 'regulators':
      return 'snapshot.regulators_changed';
    case 'arip':
    case 'classification':
      return 'snapshot.licensing_changed';
    case 'new-pack':
      return 'snapshot.pack_generated';
    case 'expiring': // the link's own life: a follow says so with follow.ended
    case 'ended':
      return null;
  }
}

/** A regulator set as stored now: the primary apart, each other regulator once (older baselines may repeat one). */
const listedOnce = (set: RegulatorSet): RegulatorSet => ({
  primary: set.primary,
  secondary: otherRegulators(set.primary, set.secondary),
});

/**
 * Regulators by name, as the card names them ("Central Bank of Nigeria"; the codes are in `before` and
 * `after`), apart by " · " since names hold commas ("Securities and Exchange Commission, Nigeria").
 */
const regulatorNames = (codes: readonly (string | null)[]): string => {
  const named = codes.flatMap((code) => (code === null ? [] : [regulatorName(english, code).name]));
  return named.length === 0 ? 'none' : named.join(' · ');
};

const sameCodes = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((code) => b.includes(code));

/** A regulator change as its fields: the primary when it moved, the others when their set changed. */
function regulatorChanges(change: RegulatorChange): EventChange[] {
  const from = listedOnce(change.from);
  const to = listedOnce(change.to);
  const changes: EventChange[] = [];
  if (from.primary !== to.primary) {
    changes.push({
      field: 'licensing.primary_regulator',
      before: from.primary,
      after: to.primary,
      summary: `Primary regulator: ${regulatorNames([from.primary])} → ${regulatorNames([to.primary])}`,
    });
  }
  if (!sameCodes(from.secondary, to.secondary)) {
    changes.push({
      field: 'licensing.secondary_regulators',
      before: [...from.secondary],
      after: [...to.secondary],
      summary: `Other regulators: ${regulatorNames(from.secondary)} → ${regulatorNames(to.secondary)}`,
    });
  }
  return changes;
}

function gapOf(title: string, severity: GapSeverity): WatchGap {
  return { title, severity };
}

/** The before/after fields of one change, in the snapshot's own field names. */
function toEventChanges(change: Change, baseline: WatchPoint, now: number): EventChange[] {
  const summary = change.kind === 'regulators' ? '' : describeChange(english, change, now);
  switch (change.kind) {
    case 'readiness':
      return [{ field: 'scores.readiness_score', before: change.from, after: change.to, summary }];
    case 'fundraise':
      return [{ field: 'scores.fundraise_score', before: change.from, after: change.to, summary }];
    case 'checklist':
      return [{ field: 'scores.checklist_completion_pct', before: change.from, after: change.to, summary }];
    case 'label':
      return [{ field: 'scores.readiness_label', before: change.from, after: change.to, summary }];
    case 'band':
      return [{ field: 'scores.fundraise_risk_band', before: change.from, after: change.to, summary }];
    case 'gap-added':
      return [{ field: 'top_gaps', before: null, after: gapOf(change.title, change.severity), summary }];
    case 'gap-resolved':
      return [{ field: 'top_gaps', before: gapOf(change.title, change.severity), after: null, summary }];
    case 'gap-severity':
      return [{ field: 'top_gaps', before: gapOf(change.title, change.from), after: gapOf(change.title, change.to), summary }];
    case 'arip':
      return [{ field: 'licensing.arip_stage', before: change.from, after: change.to, summary }];
    case 'classification':
      return [{ field: 'licensing.product_classification', before: change.from, after: change.to, summary }];
    case 'new-pack':
      return [
        {
          field: 'dd_pack',
          before: { generated_at: baseline.packGeneratedAt, verification_hash: baseline.packHash },
          after: { generated_at: change.generatedAt, verification_hash: change.hash },
          summary,
        },
      ];
    case 'regulators':
      return regulatorChanges(change);
    case 'expiring':
    case 'ended':
      return [];
  }
}

const moreSevere = (a: GapSeverity, b: GapSeverity) => (GAP_SEVERITY_RANK[a] <= GAP_SEVERITY_RANK[b] ? a : b);

/** Does this change pass the follow's thresholds (its type is checked apart)? */
function passesThresholds(change: Change, rules: FollowRules): boolean {
  const minDelta = rules.min_score_delta ?? 1;
  const minSeverity = rules.min_gap_severity ?? 'medium';
  const severe = (severity: GapSeverity) => GAP_SEVERITY_RANK[severity] <= GAP_SEVERITY_RANK[minSeverity];
  switch (change.kind) {
    case 'readiness':
    case 'fundraise':
      return Math.abs(change.delta) >= minDelta;
    case 'checklist':
      return Math.abs(change.to - change.from) >= minDelta;
    case 'gap-added':
    case 'gap-resolved':
      return severe(change.severity);
    case 'gap-severity':
      return severe(moreSevere(change.from, change.to));
    default:
      return true;
  }
}

/**
 * The gap changes the top-3 diff reports, read against every open gap: a gap that only left the top 3
 * (others came in above it) was not resolved, and a gap that only came into it was not opened.
 */
function realGapChanges(changes: WatchChange[], baseline: FollowState, next: FollowState): WatchChange[] {
  const openBefore = new Set(baseline.openGaps);
  const openNow = new Set(next.openGaps);
  return changes.flatMap((change): WatchChange[] => {
    if (change.kind === 'gap-resolved') {
      if (openNow.has(change.title.trim())) return [];
      return [{ ...change, displaced: false }];
    }
    if (change.kind === 'gap-added' && openBefore.has(change.title.trim())) return [];
    return [change];
  });
}

/** The new baseline: the state now, except the fields whose changes were held back. */
function keepHeldBack(next: FollowState, baseline: FollowState, heldBack: readonly Change[]): FollowState {
  const point: WatchPoint = { ...next.point, gaps: [...next.point.gaps] };
  let regulators = next.regulators;
  const previous = baseline.point;
  for (const change of heldBack) {
    switch (change.kind) {
      case 'readiness':
        point.readinessScore = previous.readinessScore;
        break;
      case 'fundraise':
        point.fundraiseScore = previous.fundraiseScore;
        break;
      case 'checklist':
        point.checklistPct = previous.checklistPct;
        point.checklistComplete = previous.checklistComplete;
        point.checklistTotal = previous.checklistTotal;
        break;
      case 'label':
        point.readinessLabel = previous.readinessLabel;
        break;
      case 'band':
        point.riskBand = previous.riskBand;
        break;
      case 'gap-added':
        point.gaps = point.gaps.filter((gap) => gap.title.trim() !== change.title.trim());
        break;
      case 'gap-resolved':
        point.gaps.push(gapOf(change.title, change.severity));
        break;
      case 'gap-severity':
        point.gaps = point.gaps.map((gap) => (gap.title.trim() === change.title.trim() ? gapOf(gap.title, change.from) : gap));
        break;
      case 'arip':
        point.aripStage = previous.aripStage;
        break;
      case 'classification':
        point.productClassification = previous.productClassification;
        break;
      case 'new-pack':
        point.packHash = previous.packHash;
        point.packGeneratedAt = previous.packGeneratedAt;
        break;
      case 'regulators':
        regulators = baseline.regulators;
        break;
      case 'expiring':
      case 'ended':
        break;
    }
  }
  return { point, regulators, openGaps: next.openGaps };
}

const EVENT_ORDER: readonly SnapshotEventType[] = [
  'snapshot.band_changed',
  'snapshot.scores_changed',
  'snapshot.gap_opened',
  'snapshot.gap_severity_changed',
  'snapshot.gap_resolved',
  'snapshot.regulators_changed',
  'snapshot.licensing_changed',
  'snapshot.pack_generated',
];

/** The events to send for a move from `baseline` to `next` under `rules`, and the baseline after them. */
export function followChanges(
  baseline: FollowState,
  next: FollowState,
  rules: FollowRules,
  now: Date,
): { events: PendingEvent[]; baseline: FollowState } {
  const watchChanges = realGapChanges(diffPoints(baseline.point, next.point), baseline, next);
  const regulatorChange = diffRegulators(listedOnce(baseline.regulators), listedOnce(next.regulators));
  const all: Change[] = [...watchChanges, ...(regulatorChange ? [regulatorChange] : [])];
  const wanted = new Set<SnapshotEventType>(rules.types ?? EVENT_ORDER);
  const byType = new Map<SnapshotEventType, EventChange[]>();
  const heldBack: Change[] = [];
  for (const change of all) {
    const type = typeOf(change);
    if (type === null) continue;
    if (!wanted.has(type) || !passesThresholds(change, rules)) {
      heldBack.push(change);
      continue;
    }
    byType.set(type, [...(byType.get(type) ?? []), ...toEventChanges(change, baseline.point, now.getTime())]);
  }
  const events = EVENT_ORDER.flatMap((type) => {
    const changes = byType.get(type);
    return changes && changes.length > 0 ? [{ type, changes }] : [];
  });
  return { events, baseline: keepHeldBack(next, baseline, heldBack) };
}

/** One sentence for an event: the company, then each change. */
export function eventSummary(company: string, changes: readonly EventChange[]): string {
  return `${company}: ${changes.map((change) => change.summary).join('; ')}`;
}
