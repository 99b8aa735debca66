import type { ReactNode } from 'react';
import type { Snapshot, SnapshotMeta } from '@/lib/core/schemas/snapshot';
import { formatDateTime, formatPercent, formatRelative } from '@/lib/core/format';
import { urlOnOrigin } from '@/lib/core/services';
import { useI18n } from './i18n';
import { useNow } from './useNow';
import { READINESS_LABEL_KEY, READINESS_TONE, RISK_BAND_KEY, RISK_TONE, SEVERITY_TONE } from './tones';

export interface SnapshotCardProps {
  snapshot: Snapshot;
  /** The service the snapshot came from: its investor view link is offered only on that origin. */
  serviceOrigin: string;
  meta: SnapshotMeta;
  /** When the extension fetched it (epoch ms). */
  fetchedAt: number;
  fromCache: boolean;
  /** The moment "now" for relative times; injectable for tests and screenshots. */
  now?: number;
  apiVersionWarning?: string;
  onRefresh?: () => void;
  refreshing?: boolean;
  /** Formatting locale; defaults to the i18n context's (see `components/i18n.tsx`). */
  locale?: string;
}

/** The full snapshot, as every surface (hover card, popup, side panel, founder preview) shows it. */
export function SnapshotCard(props: SnapshotCardProps) {
  const { snapshot, meta, fetchedAt, fromCache, apiVersionWarning, onRefresh, refreshing } = props;
  const { t, locale: contextLocale } = useI18n();
  const locale = props.locale ?? contextLocale;
  const now = useNow(props.now);
  const { scores, licensing, verification } = snapshot;
  const investorView = urlOnOrigin(snapshot.links.human_summary_url, props.serviceOrigin);
  const expiresAt = new Date(verification.share_expires_at);

  return (
    <article
      data-testid="snapshot-card"
      aria-label={t('snapshot.ariaLabel', { company: snapshot.company.name })}
      className="flex min-h-0 flex-col gap-3 text-sm text-slate-800 dark:text-slate-100"
    >
      {/* In a height-limited surface (the hover card) only this part scrolls: the disclaimer stays in view. */}
      {/* The hover card measures the body (data-card-body) to ask for its natural height. */}
      <div data-card-scroll className="-mx-1 min-h-0 overflow-y-auto px-1">
        <div data-card-body className="flex flex-col gap-3">
          <header className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <h2
                data-testid="company-name"
                className="text-base leading-snug font-semibold break-words text-slate-900 dark:text-white"
              >
                {snapshot.company.name}
              </h2>
              <p className="text-xs text-slate-500 dark:text-slate-400">{t('snapshot.selfAssessment')}</p>
            </div>
            <div
              className={`shrink-0 rounded-lg px-2.5 py-1 text-center ring-1 ring-inset ${READINESS_TONE[scores.readiness_label]}`}
            >
              <div data-testid="readiness-score" className="text-xl font-bold leading-tight tabular-nums">
                {scores.readiness_score}
              </div>
              <div data-testid="readiness-label" className="text-[11px] font-medium whitespace-nowrap">
                {t(READINESS_LABEL_KEY[scores.readiness_label])}
              </div>
            </div>
          </header>

          {apiVersionWarning && (
            <p
              role="status"
              title={apiVersionWarning}
              className="rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-200"
            >
              {t('snapshot.apiVersionWarning')}
            </p>
          )}

          <section
            aria-label={t('snapshot.riskSection')}
            className={`rounded-lg px-3 py-2 ring-1 ring-inset ${RISK_TONE[scores.fundraise_risk_band]}`}
          >
            <div className="flex items-baseline justify-between gap-2">
              <span data-testid="risk-band" className="font-semibold">
                {t(RISK_BAND_KEY[scores.fundraise_risk_band])}
              </span>
              <span className="text-xs tabular-nums">{t('snapshot.fundraiseScore', { score: scores.fundraise_score })}</span>
            </div>
            <p className="text-xs">{t(`snapshot.riskMeaning.${scores.fundraise_risk_band}`)}</p>
          </section>

          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
            <Row term={t('snapshot.checklist')}>
              {formatNumber(scores.checklist_complete, locale)}/{formatNumber(scores.checklist_total, locale)} (
              {formatPercent(scores.checklist_completion_pct, locale)})
              <progress
                className="ml-2 h-1.5 w-16 align-middle accent-slate-600"
                max={100}
                value={scores.checklist_completion_pct}
                aria-label={t('snapshot.checklistCompletion')}
              />
            </Row>
            <Row term={t('snapshot.product')}>
              {licensing.product_classification
                ? `${t(`snapshot.product.${licensing.product_classification}`)} (${licensing.product_classification})`
                : t('snapshot.notClassified')}
            </Row>
            <Row term={t('snapshot.regulators')}>
              {licensing.primary_regulator ?? t('snapshot.noRegulator')}
              {licensing.secondary_regulators.length > 0 && (
                <span className="text-slate-500 dark:text-slate-400">
                  {' · '}
                  {t('snapshot.alsoRegulators', { regulators: formatList(licensing.secondary_regulators, locale) })}
                </span>
              )}
            </Row>
            <Row term={t('snapshot.aripStage')}>
              {licensing.arip_stage ? t(`snapshot.arip.${licensing.arip_stage}`) : t('snapshot.notInArip')}
            </Row>
          </dl>

          <section aria-label={t('snapshot.topGaps')}>
            <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
              {t('snapshot.topGaps')}
            </h3>
            {snapshot.top_gaps.length === 0 ? (
              <p className="text-xs text-slate-600 dark:text-slate-300">{t('snapshot.noGaps')}</p>
            ) : (
              <ul className="flex flex-col gap-1.5">
                {snapshot.top_gaps.map((gap, index) => (
                  <li data-testid="gap" key={`${index}-${gap.title}`} className="text-xs">
                    <span
                      className={`mr-1.5 inline-block rounded px-1.5 py-px text-[10px] font-semibold uppercase ${SEVERITY_TONE[gap.severity]}`}
                    >
                      {t(`snapshot.severity.${gap.severity}`)}
                    </span>
                    <span className="font-medium">{gap.title}</span>
                    {gap.regulatory_basis && (
                      <span className="block text-slate-500 dark:text-slate-400">{gap.regulatory_basis}</span>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>

          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 border-t border-slate-200 pt-2 text-[11px] text-slate-600 dark:border-slate-700 dark:text-slate-300">
            <Row term={t('snapshot.scoreCalculated')}>{formatDateTime(verification.last_score_calculated_at, locale)}</Row>
            <Row term={t('snapshot.ddPack')}>
              {verification.pack_generated_at ? formatDateTime(verification.pack_generated_at, locale) : t('snapshot.noPack')}
              {verification.pack_verification_hash && (
                <code className="ml-1 rounded bg-slate-100 px-1 dark:bg-slate-800">{verification.pack_verification_hash}</code>
              )}
            </Row>
            <Row term={t('snapshot.linkExpires')}>
              <time dateTime={verification.share_expires_at} title={formatDateTime(expiresAt, locale)}>
                {formatRelative(expiresAt, now, locale)} · {formatDateTime(expiresAt, locale)}
              </time>
            </Row>
            <Row term={t('snapshot.snapshotAt')}>{formatDateTime(verification.snapshot_at, locale)}</Row>
            <Row term={t('snapshot.views')}>{formatNumber(meta.view_count, locale)}</Row>
          </dl>

          <div className="flex items-center justify-between gap-2 text-[11px] text-slate-500 dark:text-slate-400">
            <span>
              {t(fromCache ? 'snapshot.cachedFetched' : 'snapshot.fetched', {
                when: formatRelative(fetchedAt, now, locale),
              })}
            </span>
            <span className="flex items-center gap-3">
              {investorView && (
                <a
                  href={investorView}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="font-medium text-sky-700 underline-offset-2 hover:underline dark:text-sky-300"
                >
                  {t('snapshot.investorView')}
                </a>
              )}
              {onRefresh && (
                <button
                  type="button"
                  onClick={onRefresh}
                  disabled={refreshing}
                  className="rounded border border-slate-300 px-2 py-0.5 font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800"
                  title={t('snapshot.refreshTitle')}
                >
                  {t(refreshing ? 'snapshot.refreshing' : 'snapshot.refresh')}
                </button>
              )}
            </span>
          </div>
        </div>
      </div>

      <Disclaimer text={snapshot.disclaimer} />
    </article>
  );
}

/** The snapshot's own disclaimer, in full: never truncated or hidden. */
export function Disclaimer({ text }: { text: string }) {
  return (
    <p
      data-testid="disclaimer"
      className="shrink-0 rounded-md bg-slate-100 px-2.5 py-2 text-[11px] leading-snug text-slate-700 dark:bg-slate-800 dark:text-slate-200"
    >
      {text}
    </p>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-500 dark:text-slate-400">{term}</dt>
      <dd className="min-w-0">{children}</dd>
    </>
  );
}

function formatNumber(value: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(value);
}

function formatList(items: readonly string[], locale: string): string {
  return new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(items);
}
