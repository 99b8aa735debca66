import type { ReactNode } from 'react';
import { displayText } from '@/lib/core/display-text';
import { formatDateTime, formatPercent, formatRelative } from '@/lib/core/format';
import type { Snapshot, SnapshotMeta } from '@/lib/core/schemas/snapshot';
import type { SignatureVerdict } from '@/lib/core/schemas/results';
import { hostOf, SaveCopyButton, SignatureAlert, SignatureLine } from './SignatureLine';
import { urlOnOrigin } from '@/lib/core/services';
import {
  aripStageName,
  productName,
  readinessLabelName,
  regulatorName,
  riskBandName,
  sinceText,
  type NamedCode,
} from '@/lib/core/vocabulary';
import { useCardI18n } from './card-i18n';
import { ProgressBar } from './figures';
import { FADE_AT_FOOT, ScrollCue, useScrollCue } from './scroll-cue';
import { serviceClockAhead } from './service-clock';
import { ServiceDisclaimer } from './ServiceText';
import { READINESS_TONE, RISK_TONE, SEVERITY_TONE, TONE_CLASS } from './tones';
import { useNow } from './useNow';

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
  /** The background's check of the answer's signature (issue #36); absent for entries cached before it checked. */
  signature?: SignatureVerdict | undefined;
  onRefresh?: () => void;
  refreshing?: boolean;
  /** What became of the last Refresh when it went wrong, said right below the button. */
  refreshProblem?: ReactNode;
  /** Formatting locale; defaults to the i18n context's (see `components/card-i18n.tsx`). */
  locale?: string;
  /** Controls beside the company's name (the hover card's watch and close buttons). */
  headerActions?: ReactNode;
}

/**
 * The full snapshot, as every surface (hover card, popup, side panel, founder preview) shows it. What
 * an investor came for comes first (the company, its two scores each with its scale, the first gaps);
 * the facts and dates follow. In a height-limited surface (the hover card) only the middle scrolls,
 * says so, and the disclaimer stays whole in view below it.
 */
export function SnapshotCard(props: SnapshotCardProps) {
  const {
    snapshot,
    meta,
    fetchedAt,
    fromCache,
    apiVersionWarning,
    signature,
    onRefresh,
    refreshing,
    refreshProblem,
    headerActions,
  } = props;
  const i18n = useCardI18n();
  const { t } = i18n;
  const locale = props.locale ?? i18n.locale;
  const now = useNow(props.now);
  const { scores, licensing, verification } = snapshot;
  const investorView = urlOnOrigin(snapshot.links.human_summary_url, props.serviceOrigin);
  const expiresAt = new Date(verification.share_expires_at);
  // The service's times on one clock (issue #33 item 8): a past event it stamped later than this
  // browser's now reads "just now", and the expiry counts down on the service's clock.
  const serviceNow = now + serviceClockAhead(verification.snapshot_at, fetchedAt);
  const stamped = (at: string) => (Date.parse(at) > now ? sinceText(i18n, now, now) : formatDateTime(at, locale));
  const company = displayText(snapshot.company.name);
  const product = productName(i18n, licensing.product_classification);
  const stage = aripStageName(i18n, licensing.arip_stage);
  const regulators = [licensing.primary_regulator, ...licensing.secondary_regulators]
    .filter((code) => code !== null)
    .map((code) => regulatorName(i18n, code));
  const { scrollRef, bodyRef, overflows, moreBelow } = useScrollCue();
  const host = hostOf(props.serviceOrigin);
  const unvouched = signature?.state === 'invalid';

  return (
    <article
      data-testid="snapshot-card"
      aria-label={t('snapshot.ariaLabel', { company })}
      className="flex min-h-0 grow flex-col gap-2 text-sm text-slate-800 dark:text-slate-100"
    >
      {/* The hover card measures the body (data-card-body) to ask for its natural height. What an
          investor came for comes first, so a card shortened to the room it has still shows it. */}
      <div
        ref={scrollRef}
        data-card-scroll
        // A row the scrolling part cuts fades out: it reads as continued, not as cut text.
        style={moreBelow ? FADE_AT_FOOT : undefined}
        className="-mx-1 min-h-0 grow overflow-y-auto px-1"
      >
        <div ref={bodyRef} data-card-body className="flex flex-col gap-2.5">
          <header>
            <div className="flex items-start gap-2">
              <h2
                data-testid="company-name"
                title={snapshot.company.name === company ? undefined : displayText(snapshot.company.name, { max: 2000 })}
                className="min-w-0 flex-1 text-base leading-snug font-semibold break-words text-slate-900 dark:text-white"
              >
                {company}
              </h2>
              {headerActions && <div className="-mt-0.5 -mr-1 flex shrink-0 items-center gap-0.5">{headerActions}</div>}
            </div>
            <p className="text-[11px] text-slate-600 dark:text-slate-300">{t('snapshot.selfAssessment')}</p>
          </header>
          {unvouched && <SignatureAlert host={host} />}

          {/* Under a failing signature the figures lose their verdict colours: they are not shown as the service's. */}
          <div className="grid grid-cols-2 gap-2">
            <section
              aria-label={t('vocab.readinessHeading')}
              className={`rounded-lg px-2.5 py-1 ring-1 ring-inset ${unvouched ? TONE_CLASS.neutral : READINESS_TONE[scores.readiness_label]}`}
            >
              <h3 className="text-[11px] font-medium">{t('vocab.readinessHeading')}</h3>
              <p className="flex flex-wrap items-baseline gap-x-1.5 leading-tight">
                <span className="whitespace-nowrap">
                  <span data-testid="readiness-score" className="text-xl font-bold tabular-nums">
                    {scores.readiness_score}
                  </span>
                  <span className="text-xs font-medium">/100</span>
                </span>
                <span data-testid="readiness-label" className="text-xs font-semibold">
                  {readinessLabelName(i18n, scores.readiness_label)}
                </span>
              </p>
            </section>
            <section
              aria-label={t('vocab.riskHeading')}
              className={`rounded-lg px-2.5 py-1 ring-1 ring-inset ${unvouched ? TONE_CLASS.neutral : RISK_TONE[scores.fundraise_risk_band]}`}
            >
              <h3 className="text-[11px] font-medium">{t('vocab.riskHeading')}</h3>
              <p data-testid="risk-band" className="text-base leading-tight font-bold">
                {riskBandName(i18n, scores.fundraise_risk_band)}
              </p>
              <p className="text-[11px] leading-tight tabular-nums">
                {t('vocab.fundraiseScore', { score: scores.fundraise_score })}
              </p>
            </section>
          </div>

          {apiVersionWarning && (
            <p
              role="status"
              title={apiVersionWarning}
              className="rounded-md bg-tone-amber-bg px-2 py-1 text-xs text-tone-amber-fg ring-1 ring-tone-amber-border ring-inset"
            >
              {t('snapshot.apiVersionWarning')}
            </p>
          )}

          <section aria-label={t('snapshot.topGaps')}>
            <h3 className="mb-1 text-[11px] font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300">
              {t('snapshot.topGaps')}
            </h3>
            {snapshot.top_gaps.length === 0 ? (
              <p data-testid="no-gaps" className="text-xs text-slate-700 dark:text-slate-200">
                {t('snapshot.noGaps')}
              </p>
            ) : (
              // A grid, so every title starts at the same place whatever its severity's word.
              <ul className="grid grid-cols-[auto_1fr] gap-x-1.5 gap-y-1.5">
                {snapshot.top_gaps.map((gap, index) => (
                  <li data-testid="gap" key={`${index}-${gap.title}`} className="col-span-2 grid grid-cols-subgrid text-xs">
                    <span
                      className={`mt-px self-start justify-self-start rounded px-1.5 py-px text-[10px] font-semibold uppercase ring-1 ring-inset ${SEVERITY_TONE[gap.severity]}`}
                    >
                      {t(`snapshot.severity.${gap.severity}`)}
                    </span>
                    <span className="min-w-0 break-words">
                      <span className="font-medium">{displayText(gap.title)}</span>
                      {gap.regulatory_basis && (
                        <span className="block text-slate-600 dark:text-slate-300">{displayText(gap.regulatory_basis)}</span>
                      )}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>

          <p className="text-xs text-slate-600 dark:text-slate-300">{t(`snapshot.riskMeaning.${scores.fundraise_risk_band}`)}</p>

          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
            <Row term={t('snapshot.checklist')}>
              <span className="tabular-nums">
                {formatNumber(scores.checklist_complete, locale)}/{formatNumber(scores.checklist_total, locale)} (
                {formatPercent(scores.checklist_completion_pct, locale)})
              </span>
              <ProgressBar
                pct={scores.checklist_completion_pct}
                label={t('snapshot.checklistCompletion')}
                className="ml-2 w-16"
              />
            </Row>
            <Row term={t('snapshot.product')}>{product ? <Named name={product} /> : t('snapshot.notClassified')}</Row>
            <Row term={t('snapshot.regulators')}>
              {regulators.length === 0
                ? t('snapshot.noRegulator')
                : regulators.map((regulator, index) => (
                    <span key={regulator.code} className="block">
                      <Named name={regulator} />
                      {index === 0 && licensing.primary_regulator !== null && regulators.length > 1 && (
                        <span className="text-slate-600 dark:text-slate-300"> · {t('snapshot.primaryRegulator')}</span>
                      )}
                    </span>
                  ))}
            </Row>
            <Row term={t('snapshot.aripStage')}>{stage ? <Named name={stage} /> : t('snapshot.notInArip')}</Row>
          </dl>

          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 border-t border-slate-200 pt-2 text-[11px] text-slate-700 dark:border-slate-700 dark:text-slate-200">
            <Row term={t('snapshot.scoreCalculated')}>{stamped(verification.last_score_calculated_at)}</Row>
            <Row term={t('snapshot.ddPack')}>
              {verification.pack_generated_at ? stamped(verification.pack_generated_at) : t('snapshot.noPack')}
              {/* A short hash goes to the next line whole; only one longer than the line breaks. */}
              {verification.pack_verification_hash && (
                <code className="ml-1 inline-block max-w-full rounded bg-slate-100 px-1 break-all dark:bg-slate-800">
                  {verification.pack_verification_hash}
                </code>
              )}
            </Row>
            <Row term={t('snapshot.linkExpires')}>
              <time dateTime={verification.share_expires_at} title={formatDateTime(expiresAt, locale)}>
                {formatRelative(expiresAt, serviceNow, locale)} · {formatDateTime(expiresAt, locale)}
              </time>
            </Row>
            <Row term={t('snapshot.snapshotAt')}>{stamped(verification.snapshot_at)}</Row>
            <Row term={t('snapshot.views')}>{formatNumber(meta.view_count, locale)}</Row>
          </dl>

          <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1.5 text-[11px] text-slate-600 dark:text-slate-300">
            <span>
              {t(fromCache ? 'snapshot.loadedFromCache' : 'snapshot.loadedNow', { when: sinceText(i18n, fetchedAt, now) })}
            </span>
            {signature && <SignatureLine signature={signature} host={host} locale={locale} />}
            <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
              {signature?.state === 'verified' && signature.copy && (
                <SaveCopyButton copy={signature.copy} company={snapshot.company.name} />
              )}
              {investorView && (
                <a
                  href={investorView}
                  target="_blank"
                  rel="noopener noreferrer"
                  title={t('snapshot.investorViewTitle')}
                  className="font-medium text-accent underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand"
                >
                  {t('snapshot.investorViewCosts')}
                </a>
              )}
              {onRefresh && (
                <button
                  type="button"
                  onClick={onRefresh}
                  disabled={refreshing}
                  title={t('snapshot.refreshTitle')}
                  className="rounded border border-slate-300 px-2 py-0.5 font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand disabled:opacity-50 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800"
                >
                  {t(refreshing ? 'snapshot.refreshing' : 'snapshot.refreshCosts')}
                </button>
              )}
            </span>
          </div>
          {refreshProblem}
        </div>
      </div>
      <div className="flex shrink-0 flex-col">
        <ScrollCue overflows={overflows} moreBelow={moreBelow} />
        <ServiceDisclaimer text={snapshot.disclaimer} compact />
      </div>
    </article>
  );
}

/** A name the API gave a code for: the name shown, the code at hand in its tooltip. */
function Named({ name }: { name: NamedCode }) {
  const { t } = useCardI18n();
  return (
    <span title={t('vocab.code', { code: name.code })} data-code={name.code}>
      {name.name}
    </span>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-600 dark:text-slate-300">{term}</dt>
      <dd className="min-w-0">{children}</dd>
    </>
  );
}

function formatNumber(value: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(value);
}
