import type { PageLink } from '@/lib/protocol/page-links';
import type { PeekResult, SnapshotError, SnapshotReady } from '@/lib/core/schemas/results';
import type { ReadinessLabel, RiskBand } from '@/lib/core/labels';

/** One link on the page as the list and table show it. Framework-free, so sorting and CSV are testable. */
export interface LinkRow {
  link: PageLink;
  /** What the cache (or an explicit load) answered; null: nothing cached; undefined: still peeking. */
  result: PeekResult | undefined;
  /** An explicit load is on its way. */
  loading: boolean;
  ready: SnapshotReady | null;
  error: SnapshotError | null;
  company: string | null;
  /** The words the page shows for the link ("Series A data room"), when the content script says them. */
  linkText: string | null;
  score: number | null;
  label: ReadinessLabel | null;
  band: RiskBand | null;
  /** Epoch ms. */
  expiresAt: number | null;
}

export function toRow(link: PageLink, result: PeekResult | undefined, loading: boolean): LinkRow {
  const ready = result?.status === 'ready' ? result : null;
  const error = result?.status === 'error' ? result : null;
  const scores = ready?.snapshot.scores;
  return {
    link,
    result,
    loading,
    ready,
    error,
    company: ready?.snapshot.company.name ?? null,
    linkText: linkTextOf(link),
    score: scores?.readiness_score ?? null,
    label: scores?.readiness_label ?? null,
    band: scores?.fundraise_risk_band ?? null,
    expiresAt: ready ? Date.parse(ready.snapshot.verification.share_expires_at) : null,
  };
}

/**
 * Whether a link's words are an address rather than words (mail often shows the raw URL, or a mail
 * gateway's 200-character wrapper of it): such text names nothing (issue #33 item 12).
 */
export function isAddress(text: string): boolean {
  return /^(?:[a-z][\w+.-]*:\/\/|www\.)/i.test(text) || (!/\s/.test(text) && /[/?=&%]/.test(text) && text.length > 24);
}

/** The link's own words on the page, if the content script's answer carries them and they are words (an icon link has none). */
export function linkTextOf(link: PageLink): string | null {
  const trimmed = link.text?.trim() ?? '';
  return trimmed === '' || isAddress(trimmed) ? null : trimmed;
}

/** A token as a row shows it when nothing else names its link: its first characters, cut. */
export function tokenStub(token: string): string {
  return token.length > 8 ? `${token.slice(0, 6)}…` : token;
}

/** Where a page's rows stand: loaded, failed, still to load, on their way. */
export function loadProgress(rows: readonly LinkRow[]) {
  return {
    ready: rows.filter((row) => row.ready !== null).length,
    failed: rows.filter((row) => row.error !== null && !row.loading).length,
    toLoad: unloadedLinks(rows).length,
    inFlight: rows.filter((row) => row.loading).length,
  };
}

/** Rows with something to export: a snapshot, or an answer that says why there is none (not the unloaded). */
export function exportableRows(rows: readonly LinkRow[]): LinkRow[] {
  return rows.filter((row) => row.ready !== null || row.error !== null);
}

/** Links an explicit "load" would fetch: nothing cached and nothing on its way. */
export function unloadedLinks(rows: readonly LinkRow[]): PageLink[] {
  return rows.filter((row) => row.result === null && !row.loading).map((row) => row.link);
}

/** The disclaimers of the snapshots shown, each once, in full (every surface shows them with the data). */
export function distinctDisclaimers(rows: readonly LinkRow[]): string[] {
  return [...new Set(rows.flatMap((row) => (row.ready ? [row.ready.snapshot.disclaimer] : [])))];
}

export const SORT_COLUMNS = ['company', 'readiness', 'band', 'expiry'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export type SortDirection = 'ascending' | 'descending';
export interface SortState {
  column: SortColumn;
  direction: SortDirection;
}

/** Lower is riskier, so "ascending" lists the riskiest band first, like the readiness score. */
const BAND_RANK: Readonly<Record<RiskBand, number>> = { high: 0, medium: 1, low: 2, investor_ready: 3 };

/**
 * Sorted copy. Rows without the value (not loaded, errors) always go last, whatever the direction;
 * ties keep the page's order.
 */
export function sortRows(rows: readonly LinkRow[], sort: SortState, locale: string): LinkRow[] {
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const compare = (a: LinkRow, b: LinkRow): number => {
    switch (sort.column) {
      case 'company':
        return a.company !== null && b.company !== null ? collator.compare(a.company, b.company) : 0;
      case 'readiness':
        return a.score !== null && b.score !== null ? a.score - b.score : 0;
      case 'band':
        return a.band !== null && b.band !== null ? BAND_RANK[a.band] - BAND_RANK[b.band] : 0;
      case 'expiry':
        return a.expiresAt !== null && b.expiresAt !== null ? a.expiresAt - b.expiresAt : 0;
    }
  };
  const hasValue = (row: LinkRow): boolean => {
    switch (sort.column) {
      case 'company':
        return row.company !== null;
      case 'readiness':
        return row.score !== null;
      case 'band':
        return row.band !== null;
      case 'expiry':
        return row.expiresAt !== null;
    }
  };
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => {
      const aHas = hasValue(a.row);
      const bHas = hasValue(b.row);
      if (aHas !== bHas) return aHas ? -1 : 1;
      return sign * compare(a.row, b.row) || a.index - b.index;
    })
    .map(({ row }) => row);
}
