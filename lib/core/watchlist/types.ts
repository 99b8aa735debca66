import type { AripStage, GapSeverity, ProductClassification, ReadinessLabel, RiskBand } from '../labels';
import type { SnapshotErrorCode } from '../result-codes';
import type { SavableCopy } from '../signing/copy';
import type { SignatureSummary } from '../signing/summary';

/**
 * The watchlist's data as plain types, shared by the background (which keeps it) and the pages (which
 * show it). zod-free: the schemas that check these shapes where they cross a boundary or come out of
 * storage are in lib/core/schemas/watchlist.ts and are held to these types with `satisfies`.
 */

export interface WatchGap {
  title: string;
  severity: GapSeverity;
}

/** How a history point was taken. */
export const WATCH_POINT_SOURCES = ['watch', 'scheduled', 'user'] as const;
export type WatchPointSource = (typeof WATCH_POINT_SOURCES)[number];

/**
 * The figures that matter from one snapshot, with the time it was fetched (epoch ms). API timestamps
 * are kept as the API wrote them. `viewCount` is the count the response itself reported.
 */
export interface WatchPoint {
  at: number;
  source: WatchPointSource;
  readinessScore: number;
  readinessLabel: ReadinessLabel;
  fundraiseScore: number;
  riskBand: RiskBand;
  checklistPct: number;
  checklistComplete: number;
  checklistTotal: number;
  gaps: WatchGap[];
  productClassification: ProductClassification | null;
  aripStage: AripStage | null;
  packHash: string | null;
  packGeneratedAt: string | null;
  expiresAt: string;
  viewCount: number;
  /** The answer's signature as checked when it was fetched (absent for points kept before checking). */
  signature?: SignatureSummary;
}

/** The answers that end a watch for good: revoked or unknown (404), expired (410). */
export const WATCH_END_CODES = ['NOT_FOUND', 'EXPIRED'] as const;
export type WatchEndCode = (typeof WATCH_END_CODES)[number];

/** What changed between two refreshes of one link. */
export type WatchChange =
  | { kind: 'readiness'; from: number; to: number; delta: number }
  | { kind: 'fundraise'; from: number; to: number; delta: number }
  | { kind: 'label'; from: ReadinessLabel; to: ReadinessLabel }
  | { kind: 'band'; from: RiskBand; to: RiskBand }
  /** `displaced`: the list of top gaps is full, so the gap may only have dropped out of the top 3. */
  | { kind: 'gap-resolved'; title: string; severity: GapSeverity; displaced: boolean }
  | { kind: 'gap-added'; title: string; severity: GapSeverity }
  | { kind: 'gap-severity'; title: string; from: GapSeverity; to: GapSeverity }
  | { kind: 'checklist'; from: number; to: number }
  | { kind: 'arip'; from: AripStage | null; to: AripStage | null }
  | { kind: 'classification'; from: ProductClassification | null; to: ProductClassification | null }
  | { kind: 'new-pack'; hash: string | null; generatedAt: string | null }
  | { kind: 'expiring'; expiresAt: string }
  | { kind: 'ended'; code: WatchEndCode };

export type WatchChangeKind = WatchChange['kind'];

/** A readiness score at a time: what the sparkline and the week's change read. */
export interface ScoreSample {
  at: number;
  score: number;
}

export const WATCH_STATUSES = ['active', 'ended'] as const;
export type WatchStatus = (typeof WATCH_STATUSES)[number];

/** Why and when a watch ended. `expiredAt`: the link's expiry, when a snapshot told it. */
export interface WatchEnd {
  code: WatchEndCode;
  at: number;
  expiredAt?: string;
}

/** The last refresh that did not give figures and did not end the watch (rate limit, network, …). */
export interface WatchError {
  code: SnapshotErrorCode;
  at: number;
  retryAt?: number;
}

/**
 * One watched link as the background keeps it and the pages list it: the link, its state, its
 * schedule, and a summary of its history (the full history is read on demand). `disclaimer` is the
 * latest snapshot's own, shown with the figures wherever they appear.
 */
export interface WatchRecord {
  id: string;
  origin: string;
  token: string;
  company: string | null;
  status: WatchStatus;
  end: WatchEnd | null;
  muted: boolean;
  watchedAt: number;
  lastRefreshAt: number | null;
  nextDueAt: number | null;
  failures: number;
  lastError: WatchError | null;
  latest: WatchPoint | null;
  previous: WatchPoint | null;
  series: ScoreSample[];
  pointCount: number;
  disclaimer: string | null;
  /** The last refresh's verifiable copy, when that answer was verified (token-free: lib/core/signing/copy.ts). */
  copy?: SavableCopy;
}
