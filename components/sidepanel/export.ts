import { toCsv, type CsvCell } from '@/lib/core/csv';
import type { AppTranslator } from '@/lib/core/i18n';
import { readinessLabelName, riskBandName } from '@/lib/core/vocabulary';
import { errorTitleKey } from '../SnapshotError';
import type { LinkRow } from '../page-links/rows';

/**
 * The side panel's CSV: the rows shown, in the order shown, in the reader's language. Snapshot data
 * only: tokens are bearer secrets and stay out of files that get forwarded. Each row carries its
 * snapshot's disclaimer, so the data never travels without it. Expiry in ISO 8601 (UTC), which every
 * spreadsheet reads whatever its locale.
 */
export function exportRowsToCsv(i18n: AppTranslator, rows: readonly LinkRow[]): string {
  const { t } = i18n;
  const header: CsvCell[] = [
    t('panel.csv.company'),
    t('panel.csv.readinessScore'),
    t('panel.csv.readinessLabel'),
    t('panel.csv.band'),
    t('panel.csv.expires'),
    t('panel.csv.status'),
    t('panel.csv.service'),
    t('panel.csv.signature'),
    t('panel.csv.disclaimer'),
  ];
  const body = rows.map((row): CsvCell[] => [
    row.company,
    row.score,
    row.label ? readinessLabelName(i18n, row.label) : null,
    row.band ? riskBandName(i18n, row.band) : null,
    row.expiresAt === null ? null : new Date(row.expiresAt).toISOString(),
    // In words, as the rows say it: a code is for programs, and the JSON export has them.
    row.ready
      ? t('panel.csv.statusReady')
      : row.error
        ? t(errorTitleKey(row.error.code, row.error.withdrawn))
        : t('panel.csv.statusNotLoaded'),
    row.link.origin,
    row.ready?.signature ? t(`snapshot.signatureState.${row.ready.signature.state}`) : null,
    row.ready?.snapshot.disclaimer,
  ]);
  return toCsv([header, ...body]);
}

/** `compliance-snapshots-2026-11-22.csv` */
export function exportFileName({ t }: AppTranslator, now: number): string {
  return `${t('panel.csv.fileName')}-${new Date(now).toISOString().slice(0, 10)}.csv`;
}
