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

const regulatorList = (set: RegulatorSet) => [set.primary ?? 'none', ...set.secondary].join(', ');

function describeRegulators(change: RegulatorChange, field: 'primary' | 'secondary'): string {
  if (field === 'primary') return `Primary regulator: ${change.from.primary ?? 'none'} → ${change.to.primary ?? 'none'}`;
  const parts = [
    change.added.length > 0 ? `added ${change.added.join(', ')}` : null,
    change.removed.length > 0 ? `removed ${change.removed.join(', ')}` : null,
  ].filter((part) => part !== null);
  return `Regulators (${regulatorList(change.from)} → ${regulatorList(change.to)})${parts.length > 0 ? `: ${parts.join('; ')}` : ''}`;
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
    case 'regulators': {
      const changes: EventChange[] = [];
      if (change.from.primary !== change.to.primary) {
        changes.push({
          field: 'licensing.primary_regulator',
          before: change.from.primary,
          after: change.to.primary,
          summary: describeRegulators(change, 'primary'),
        });
      }
      if (change.added.length > 0 || change.removed.length > 0 || change.from.primary === change.to.primary) {
        changes.push({
          field: 'licensing.secondary_regulators',
          before: [...change.from.secondary],
          after: [...change.to.secondary],
          summary: describeRegulators(change, 'secondary'),
        });
      }
      return changes;
    }
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
  const regulatorChange = diffRegulators(baseline.regulators, next.regulators);
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
