import type { ScoreSample } from '@/lib/core/watchlist/types';
import { useI18n } from '../i18n';

/**
 * The readiness score over time as a small SVG line, with its text alternative (first, last, lowest
 * and highest score over the refreshes shown). The vertical scale spans at least 10 points, so a
 * 1-point wobble does not look like a cliff.
 */
export function Sparkline({
  series,
  width = 96,
  height = 28,
}: {
  series: readonly ScoreSample[];
  width?: number;
  height?: number;
}) {
  const { t } = useI18n();
  const scores = series.map((sample) => sample.score);
  const label =
    scores.length === 0
      ? t('watchlist.sparkline.none')
      : scores.length === 1
        ? t('watchlist.sparkline.single', { score: scores[0]! })
        : t('watchlist.sparkline.label', {
            count: scores.length,
            first: scores[0]!,
            last: scores.at(-1)!,
            min: Math.min(...scores),
            max: Math.max(...scores),
          });
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
      className="shrink-0 overflow-visible text-sky-700 dark:text-sky-300"
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

/** Samples spaced by time (equal steps when all share one time), scores on a span of at least 10. */
export function layout(series: readonly ScoreSample[], width: number, height: number): [number, number][] {
  if (series.length === 0) return [];
  const scores = series.map((sample) => sample.score);
  const low = Math.min(...scores);
  const high = Math.max(...scores);
  const mid = (low + high) / 2;
  const span = Math.max(MIN_SPAN, high - low);
  const bottom = Math.max(0, Math.min(100 - span, mid - span / 2));
  const start = series[0]!.at;
  const duration = series.at(-1)!.at - start;
  return series.map((sample, index) => {
    const progress = series.length === 1 ? 1 : duration > 0 ? (sample.at - start) / duration : index / (series.length - 1);
    const x = PAD + progress * (width - 2 * PAD);
    const y = PAD + (1 - (sample.score - bottom) / span) * (height - 2 * PAD);
    return [x, y];
  });
}
