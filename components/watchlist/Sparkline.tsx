import type { AppTranslator } from '@/lib/core/i18n';
import type { ScoreSample } from '@/lib/core/watchlist/types';
import { useI18n } from '../i18n';

/** Its text alternative: first, last, lowest and highest score over the refreshes shown. */
export function sparklineLabel({ t }: AppTranslator, series: readonly ScoreSample[]): string {
  const scores = series.map((sample) => sample.score);
  if (scores.length === 0) return t('watchlist.sparkline.none');
  if (scores.length === 1) return t('watchlist.sparkline.single', { score: scores[0]! });
  return t('watchlist.sparkline.label', {
    count: scores.length,
    first: scores[0]!,
    last: scores.at(-1)!,
    min: Math.min(...scores),
    max: Math.max(...scores),
  });
}

/**
 * The readiness score over time as a small SVG line. Every sparkline is the same size in the same
 * place of its row, so rows compare at a glance. `muted`: an ended watch, in grey.
 */
export function Sparkline({
  series,
  width = 96,
  height = 28,
  muted = false,
}: {
  series: readonly ScoreSample[];
  width?: number;
  height?: number;
  muted?: boolean;
}) {
  const i18n = useI18n();
  const label = sparklineLabel(i18n, series);
  const points = layout(series, width, height);
  const last = points.at(-1);
  return (
    <svg
      role="img"
      aria-label={label}
      data-testid="sparkline"
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      className={`shrink-0 overflow-visible ${muted ? 'text-slate-400 dark:text-slate-500' : 'text-accent'}`}
    >
      <title>{label}</title>
      <line
        x1="0"
        x2={width}
        y1={height - 0.5}
        y2={height - 0.5}
        className="stroke-slate-200 dark:stroke-slate-700"
        strokeWidth="1"
      />
      {points.length > 1 && (
        <polyline
          points={points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')}
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinejoin="round"
          strokeLinecap="round"
        />
      )}
      {last && <circle cx={last[0]} cy={last[1]} r="2.2" fill="currentColor" />}
    </svg>
  );
}

const PAD = 3;
const MIN_SPAN = 10;

/**
 * The score range a chart shows: at least 10 points (a 1-point wobble does not look like a cliff),
 * centred on the scores, within 0–100.
 */
export function scoreSpan(scores: readonly number[]): { bottom: number; span: number } {
  const low = Math.min(...scores);
  const high = Math.max(...scores);
  const span = Math.max(MIN_SPAN, high - low);
  const bottom = Math.max(0, Math.min(100 - span, (low + high) / 2 - span / 2));
  return { bottom, span };
}

/** Samples spaced by time (equal steps when all share one time), scores on a span of at least 10. */
export function layout(series: readonly ScoreSample[], width: number, height: number): [number, number][] {
  if (series.length === 0) return [];
  const { bottom, span } = scoreSpan(series.map((sample) => sample.score));
  const start = series[0]!.at;
  const duration = series.at(-1)!.at - start;
  return series.map((sample, index) => {
    const progress = series.length === 1 ? 1 : duration > 0 ? (sample.at - start) / duration : index / (series.length - 1);
    const x = PAD + progress * (width - 2 * PAD);
    const y = PAD + (1 - (sample.score - bottom) / span) * (height - 2 * PAD);
    return [x, y];
  });
}
