import { toCsv, type CsvCell } from '@/lib/core/csv';
import type { AppTranslator } from '@/lib/core/i18n';
import type { WatchPoint, WatchRecord } from '@/lib/core/watchlist/types';
import { aripStageName, productName, readinessLabelName, riskBandName } from '@/lib/core/vocabulary';

/**
 * The watchlist's history as files. Like the side panel's CSV: snapshot data in the reader's language,
 * every text field neutralised (lib/core/csv.ts), times in ISO 8601 UTC, and no share tokens (bearer
 * secrets: files get forwarded). Each row carries its snapshot's disclaimer.
 */

export type WatchExport = readonly { watch: WatchRecord; points: readonly WatchPoint[] }[];

const companyOf = (watch: WatchRecord) => watch.company ?? watch.origin;

/** One line per refresh kept, watches in the order given, oldest refresh first. */
export function watchlistToCsv(i18n: AppTranslator, exported: WatchExport): string {
  const { t } = i18n;
  const header: CsvCell[] = [
    t('watchlist.csv.company'),
    t('watchlist.csv.service'),
    t('watchlist.csv.status'),
    t('watchlist.csv.refreshedAt'),
    t('watchlist.csv.source'),
    t('watchlist.csv.readinessScore'),
    t('watchlist.csv.readinessLabel'),
    t('watchlist.csv.fundraiseScore'),
    t('watchlist.csv.band'),
    t('watchlist.csv.checklist'),
    t('watchlist.csv.gaps'),
    t('watchlist.csv.product'),
    t('watchlist.csv.arip'),
    t('watchlist.csv.packHash'),
    t('watchlist.csv.expires'),
    t('watchlist.csv.views'),
    t('watchlist.csv.signature'),
    t('watchlist.csv.disclaimer'),
  ];
  const rows = exported.flatMap(({ watch, points }) => {
    const status = watch.end ? t(`watchlist.csv.statusEnded.${watch.end.code}`) : t('watchlist.csv.statusActive');
    return points.map((point): CsvCell[] => [
      companyOf(watch),
      watch.origin,
      status,
      new Date(point.at).toISOString(),
      t(`watchlist.detail.source.${point.source}`),
      point.readinessScore,
      readinessLabelName(i18n, point.readinessLabel),
      point.fundraiseScore,
      riskBandName(i18n, point.riskBand),
      point.checklistPct,
      point.gaps.map((gap) => `${t(`snapshot.severity.${gap.severity}`)}: ${gap.title}`).join('; '),
      // Names in the reader's language (the JSON export keeps the API's codes, for other tools).
      productName(i18n, point.productClassification)?.name,
      aripStageName(i18n, point.aripStage)?.name,
      point.packHash,
      point.expiresAt,
      point.viewCount,
      point.signature ? t(`snapshot.signatureState.${point.signature.state}`) : null,
      watch.disclaimer,
    ]);
  });
  return toCsv([header, ...rows]);
}

/** The same history as JSON, with the API's own codes (not translated), for other tools. */
export function watchlistToJson(exported: WatchExport, now: number): string {
  return JSON.stringify(
    {
      format: 'compliance-lens-watchlist',
      version: 1,
      exportedAt: new Date(now).toISOString(),
      watches: exported.map(({ watch, points }) => ({
        company: watch.company,
        service: watch.origin,
        status: watch.status,
        end: watch.end ? { ...watch.end, at: new Date(watch.end.at).toISOString() } : null,
        watchedAt: new Date(watch.watchedAt).toISOString(),
        muted: watch.muted,
        disclaimer: watch.disclaimer,
        points: points.map((point) => ({ ...point, at: new Date(point.at).toISOString() })),
      })),
    },
    null,
    2,
  );
}

/** `compliance-watchlist-2026-11-22.csv` / `.json` */
export function watchlistFileName({ t }: AppTranslator, now: number, extension: 'csv' | 'json'): string {
  return `${t('watchlist.csv.fileName')}-${new Date(now).toISOString().slice(0, 10)}.${extension}`;
}
