import type { ReadinessLabel, RiskBand } from '@/lib/core/labels';
import { READINESS_TONE as READINESS_TONE_NAME, RISK_BAND_TONE, checklistTone } from '@/lib/core/palette';
import { readinessLabelName, riskBandName } from '@/lib/core/vocabulary';
import { useCardI18n } from './card-i18n';
import { TONE_CLASS, TONE_FILL } from './tones';

/**
 * The two scales as every list shows them, named each time (issue #27 item 5): "Readiness 82/100 ·
 * Good Standing" and "Fundraising risk: Low", each in its tone. `muted`: figures that are no longer
 * current (an ended watch), in grey.
 */

const pillClass = 'inline-flex max-w-full flex-wrap items-baseline gap-x-1 rounded-md px-1.5 py-0.5 text-xs ring-1 ring-inset';

/** Splits a message around `{score}`, so the score can be its own element (a test hook, bold). */
function aroundScore(template: string): [string, string] {
  const at = template.indexOf('{score}');
  return at === -1 ? [template, ''] : [template.slice(0, at), template.slice(at + '{score}'.length)];
}

export function ReadinessFigure({
  score,
  label,
  muted = false,
  scoreTestId,
}: {
  score: number;
  label: ReadinessLabel;
  muted?: boolean;
  /** `readiness-score` where a test hook is promised (the watchlist's rows). */
  scoreTestId?: string;
}) {
  const i18n = useCardI18n();
  const [before, after] = aroundScore(i18n.t('vocab.readiness', { score: '{score}', label: readinessLabelName(i18n, label) }));
  return (
    <span className={`${pillClass} ${TONE_CLASS[muted ? 'neutral' : READINESS_TONE_NAME[label]]}`}>
      <span>
        {before}
        <span data-testid={scoreTestId} className="font-bold tabular-nums">
          {score}
        </span>
        {after}
      </span>
    </span>
  );
}

export function RiskFigure({ band, muted = false, testId }: { band: RiskBand; muted?: boolean; testId?: string }) {
  const i18n = useCardI18n();
  return (
    <span data-testid={testId} className={`${pillClass} ${TONE_CLASS[muted ? 'neutral' : RISK_BAND_TONE[band]]}`}>
      {i18n.t('vocab.risk', { band: riskBandName(i18n, band) })}
    </span>
  );
}

/**
 * A completion bar in the palette: neutral until complete (lib/core/palette.ts `checklistTone`), not
 * the browser's bright green. For the card's checklist too.
 */
export function ProgressBar({ pct, label, className = 'w-16' }: { pct: number; label: string; className?: string }) {
  const value = Math.max(0, Math.min(100, Math.round(pct)));
  return (
    <span
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className={`inline-block h-1.5 overflow-hidden rounded-full bg-slate-200 align-middle dark:bg-slate-700 ${className}`}
    >
      <span className={`block h-full rounded-full ${TONE_FILL[checklistTone(value)]}`} style={{ width: `${value}%` }} />
    </span>
  );
}
