/**
 * The human-readable investor view of one snapshot (`GET /share/{token}`). Pure: envelope in, HTML out.
 */

import { displayText } from '../../lib/core/display-text';
import { checklistTone } from '../../lib/core/palette';
import type { Gap, SnapshotSuccessEnvelope } from '../../lib/core/schemas/snapshot';
import {
  aripStageName,
  productName,
  readinessLabelName,
  regulatorName,
  riskBandName,
  type NamedCode,
} from '../../lib/core/vocabulary';
import {
  READINESS_LABEL_TONE,
  RISK_BAND_TONE,
  SEVERITY_TONE,
  escapeHtml,
  renderDocument,
  renderTopbar,
  timeElement,
  viewTranslator,
  type Tone,
} from '../platform/views/html';

const SHARE_CSS = `
.topbar .chip { white-space: normal; }
.hero { display: flex; justify-content: space-between; align-items: flex-end; gap: 16px; flex-wrap: wrap; }
.hero p { margin-top: 6px; }
.notice { margin-top: 16px; }
.scores { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 16px; margin-top: 20px; }
.score-card { display: flex; flex-direction: column; gap: 10px; border-top-width: 4px; }
.score-card.tone-top-red { border-top-color: var(--red-solid); }
.score-card.tone-top-amber { border-top-color: var(--amber-solid); }
.score-card.tone-top-blue { border-top-color: var(--blue-solid); }
.score-card.tone-top-green { border-top-color: var(--green-solid); }
.score-card.tone-top-neutral { border-top-color: var(--neutral-solid); }
.score-head { display: flex; flex-direction: column; align-items: flex-start; gap: 6px; }
.score-head h2 { font-size: 0.88rem; font-weight: 600; color: var(--muted); white-space: nowrap; }
.score-value { font-size: 2.4rem; font-weight: 750; line-height: 1; font-variant-numeric: tabular-nums; letter-spacing: -0.02em; }
.score-value small { font-size: 1rem; font-weight: 500; color: var(--muted); margin-left: 2px; letter-spacing: 0; }
.bar { height: 8px; border-radius: 999px; background: var(--surface-2); border: 1px solid var(--border); overflow: hidden; }
.bar > span { display: block; height: 100%; border-radius: 999px; }
.fill-red { background: var(--red-solid); }
.fill-amber { background: var(--amber-solid); }
.fill-blue { background: var(--blue-solid); }
.fill-green { background: var(--green-solid); }
.fill-neutral { background: var(--neutral-solid); }
.grid-2 { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; }
.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 10px 20px; margin: 0; }
.facts dt { color: var(--muted); font-size: 0.88rem; }
.facts dd { margin: 0; font-weight: 500; }
.names { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 2px; }
.gaps { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 12px; }
.gap { display: grid; grid-template-columns: 92px minmax(0, 1fr); gap: 12px; padding: 14px 16px; border: 1px solid var(--border); border-radius: 10px; background: var(--surface-2); }
.gap-title { font-weight: 600; }
.gap-basis { margin-top: 4px; color: var(--muted); font-size: 0.88rem; }
.gap-basis strong { font-weight: 600; color: var(--text); }
.severity { justify-self: start; align-self: start; text-transform: uppercase; letter-spacing: 0.04em; font-size: 0.72rem; }
.empty { display: flex; gap: 12px; align-items: center; padding: 16px; border-radius: 10px; border: 1px dashed var(--green-border); background: var(--green-bg); color: var(--green-fg); font-weight: 500; }
.disclaimer { margin-top: 20px; border: 2px solid var(--amber-border); background: var(--amber-bg); color: var(--text); }
.disclaimer h2 { color: var(--amber-fg); margin-bottom: 8px; }
.disclaimer p { white-space: pre-line; }
.hash { padding: 1px 6px; border-radius: 5px; background: var(--surface-2); border: 1px solid var(--border); }
@media (max-width: 760px) {
  .scores { grid-template-columns: minmax(0, 1fr); }
  .grid-2 { grid-template-columns: minmax(0, 1fr); }
}
@media (max-width: 480px) {
  .facts { grid-template-columns: minmax(0, 1fr); gap: 2px 0; }
  .facts dd { margin-bottom: 8px; }
  .gap { grid-template-columns: minmax(0, 1fr); gap: 6px; }
}
@media print {
  .scores { grid-template-columns: repeat(3, minmax(0, 1fr)); }
  .grid-2 { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
  .bar > span, .score-card { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;

function clampPct(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.max(0, Math.min(100, Math.round(value)));
}

function bar(pct: number, tone: Tone, label: string): string {
  const width = clampPct(pct);
  return `<div class="bar" role="img" aria-label="${escapeHtml(label)}"><span class="fill-${tone}" style="width:${width}%"></span></div>`;
}

function factRow(term: string, valueHtml: string, testId?: string): string {
  const attr = testId ? ` data-testid="${escapeHtml(testId)}"` : '';
  return `<dt>${escapeHtml(term)}</dt><dd${attr}>${valueHtml}</dd>`;
}

/** A name with its API code at hand (the tooltip), as the extension shows it: "Central Bank of Nigeria". */
function named({ name, code }: NamedCode): string {
  return `<span title="${escapeHtml(viewTranslator.t('vocab.code', { code }))}" data-code="${escapeHtml(code)}">${escapeHtml(name)}</span>`;
}

function renderGap(gap: Gap): string {
  const tone = SEVERITY_TONE[gap.severity];
  const basis = gap.regulatory_basis.trim()
    ? `<p class="gap-basis"><strong>Regulatory basis:</strong> <span data-testid="gap-basis">${escapeHtml(gap.regulatory_basis)}</span></p>`
    : '';
  return `<li class="gap" data-testid="gap" data-severity="${escapeHtml(gap.severity)}">
  <span class="chip severity tone-${tone}" data-testid="gap-severity">${escapeHtml(viewTranslator.t(`snapshot.severity.${gap.severity}`))}</span>
  <div><p class="gap-title" data-testid="gap-title">${escapeHtml(displayText(gap.title))}</p>${basis}</div>
</li>`;
}

export function renderSharePage(envelope: SnapshotSuccessEnvelope): string {
  const { data, meta } = envelope;
  const { scores, licensing, verification } = data;
  // A founder's name, cleaned of bidi and control characters (lib/core/display-text.ts), whole.
  const company = displayText(data.company.name);
  const readinessTone = READINESS_LABEL_TONE[scores.readiness_label];
  const riskTone = RISK_BAND_TONE[scores.fundraise_risk_band];
  // One vocabulary with the extension (lib/core/vocabulary.ts): names, with the API's codes in tooltips.
  const i18n = viewTranslator;
  const checklist: Tone = checklistTone(scores.checklist_completion_pct);
  const product = productName(i18n, licensing.product_classification);
  const stage = aripStageName(i18n, licensing.arip_stage);
  const productHtml = product ? named(product) : '<span class="muted">Not classified</span>';
  const primary = licensing.primary_regulator
    ? named(regulatorName(i18n, licensing.primary_regulator))
    : '<span class="muted">None stated</span>';
  const secondary =
    licensing.secondary_regulators.length > 0
      ? `<ul class="names">${licensing.secondary_regulators.map((code) => `<li>${named(regulatorName(i18n, code))}</li>`).join('')}</ul>`
      : '<span class="muted">None</span>';
  const arip = stage ? named(stage) : '<span class="muted">Not in ARIP</span>';

  const gaps =
    data.top_gaps.length === 0
      ? `<div class="empty" data-testid="no-gaps"><span class="callout-icon" aria-hidden="true" style="background:var(--green-solid)">✓</span><span>No open gaps reported. The founder's assessment lists no open regulatory gaps.</span></div>`
      : `<ol class="gaps">${data.top_gaps.map(renderGap).join('\n')}</ol>`;

  const pack = verification.pack_generated_at
    ? timeElement(verification.pack_generated_at)
    : '<span class="muted">No DD pack generated</span>';
  const hash = verification.pack_verification_hash
    ? `<code class="hash" data-testid="pack-hash">${escapeHtml(verification.pack_verification_hash)}</code>`
    : '<span class="muted">None</span>';
  const views = meta.view_count === 1 ? '1 view' : `${escapeHtml(meta.view_count)} views`;

  const body = `<div class="page">
${renderTopbar('Investor view · compliance status snapshot', '<span class="chip tone-amber chip-dot">Founder self-assessment · not a certification</span>')}
<main>
  <article data-testid="snapshot-card" aria-labelledby="company-name">
    <div class="hero">
      <div>
        <h1 id="company-name" data-testid="company-name">${escapeHtml(company)}</h1>
        <p class="muted">Regulatory readiness snapshot as of ${timeElement(verification.snapshot_at)} · API version <span class="mono">${escapeHtml(data.api_version)}</span></p>
      </div>
    </div>

    <div class="callout notice" role="note">
      <span class="callout-icon" aria-hidden="true">i</span>
      <p><strong>This is a founder self-assessment, not a certification.</strong> The figures below come from information the founder maintains. They are not issued, reviewed or endorsed by any regulator, and do not confirm that a licence is held. Read the disclaimer below and do your own due diligence.</p>
    </div>

    <section class="scores" aria-label="Scores">
      <div class="card score-card tone-top-${readinessTone}">
        <div class="score-head"><h2>Readiness</h2><span class="chip chip-dot tone-${readinessTone}" data-testid="readiness-label">${escapeHtml(readinessLabelName(i18n, scores.readiness_label))}</span></div>
        <div class="score-value"><span data-testid="readiness-score">${escapeHtml(scores.readiness_score)}</span><small>/100</small></div>
        ${bar(scores.readiness_score, readinessTone, `Readiness score ${scores.readiness_score} of 100`)}
      </div>
      <div class="card score-card tone-top-${riskTone}">
        <div class="score-head"><h2>Fundraising risk</h2><span class="chip chip-dot tone-${riskTone}" data-testid="risk-band" data-band="${escapeHtml(scores.fundraise_risk_band)}">${escapeHtml(riskBandName(i18n, scores.fundraise_risk_band))}</span></div>
        <div class="score-value"><span data-testid="fundraise-score">${escapeHtml(scores.fundraise_score)}</span><small>/100 fundraise score</small></div>
        <p class="small muted" data-testid="risk-label">${escapeHtml(scores.fundraise_risk_label)}</p>
      </div>
      <div class="card score-card tone-top-${checklist}">
        <div class="score-head"><h2>DD checklist</h2><span class="chip" data-testid="checklist-pct">${escapeHtml(scores.checklist_completion_pct)}% complete</span></div>
        <div class="score-value"><span data-testid="checklist-complete">${escapeHtml(scores.checklist_complete)}</span><small>/ <span data-testid="checklist-total">${escapeHtml(scores.checklist_total)}</span> items</small></div>
        ${bar(scores.checklist_completion_pct, checklist, `Checklist ${scores.checklist_completion_pct}% complete`)}
      </div>
    </section>

    <div class="grid-2 section">
      <section class="card" aria-labelledby="licensing-title">
        <h2 id="licensing-title" class="section-title">Licensing</h2>
        <dl class="facts">
          ${factRow('Product classification', productHtml, 'product-classification')}
          ${factRow('Primary regulator', primary, 'primary-regulator')}
          ${factRow('Secondary regulators', secondary, 'secondary-regulators')}
          ${factRow('ARIP stage', arip, 'arip-stage')}
        </dl>
      </section>
      <section class="card" aria-labelledby="verification-title">
        <h2 id="verification-title" class="section-title">Verification (times in UTC)</h2>
        <dl class="facts">
          ${factRow('Score calculated', timeElement(verification.last_score_calculated_at), 'score-calculated')}
          ${factRow('DD pack generated', pack, 'pack-generated')}
          ${factRow('Pack hash', hash)}
          ${factRow('Share link expires', timeElement(verification.share_expires_at), 'share-expires')}
          ${factRow('Snapshot taken', timeElement(verification.snapshot_at), 'snapshot-at')}
          ${factRow('Views', `<span data-testid="view-count">${views}</span>`)}
        </dl>
      </section>
    </div>

    <section class="card section" aria-labelledby="gaps-title">
      <h2 id="gaps-title" class="section-title">Top regulatory gaps</h2>
      ${gaps}
    </section>

    <section class="card disclaimer" aria-labelledby="disclaimer-title">
      <h2 id="disclaimer-title">Disclaimer</h2>
      <p data-testid="disclaimer">${escapeHtml(data.disclaimer)}</p>
    </section>
  </article>
</main>
<footer class="footer">
  <p>Shared by the founder through a time-limited, revocable link. Each opening of this page or of its API address counts as a view that the founder can see. Scores change as the founder completes compliance tasks; this page shows the state at the snapshot time above.</p>
</footer>
</div>`;

  return renderDocument({
    title: `${company} — compliance snapshot · Compliance Lens`,
    description: `Founder self-assessed compliance snapshot for ${company}. Not a certification.`,
    body,
    css: SHARE_CSS,
  });
}
