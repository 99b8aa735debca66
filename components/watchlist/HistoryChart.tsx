import { formatDayTime } from '@/lib/core/format';
import type { ScoreSample } from '@/lib/core/watchlist/types';
import { useI18n } from '../i18n';
import { scoreSpan, sparklineLabel } from './Sparkline';

const WIDTH = 320;
const HEIGHT = 132;
/** Room for the score labels on the left and the dates below. */
const LEFT = 30;
const RIGHT = 10;
const TOP = 8;
const BOTTOM = 22;

/**
 * The readiness score over the refreshes kept, in a watch's details: a line with a point per refresh,
 * a score axis (the lowest and highest of the scale shown, and its middle) and a time axis (the first
 * and last refresh), so the reader can tell how much it moved and over how long.
 */
export function HistoryChart({ series }: { series: readonly ScoreSample[] }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  if (series.length === 0) return null;
  const { bottom, span } = scoreSpan(series.map((sample) => sample.score));
  const start = series[0]!.at;
  const end = series.at(-1)!.at;
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const x = (at: number, index: number) =>
    LEFT + (end > start ? (at - start) / (end - start) : series.length === 1 ? 1 : index / (series.length - 1)) * plotWidth;
  const y = (score: number) => TOP + (1 - (score - bottom) / span) * plotHeight;
  const ticks = [bottom, bottom + span / 2, bottom + span].map((value) => Math.round(value));
  const points = series.map((sample, index) => [x(sample.at, index), y(sample.score)] as const);
  return (
    <figure className="flex flex-col gap-1">
      <figcaption className="text-[11px] font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400">
        {t('watchlist.detail.chart')}
      </figcaption>
      <svg
        role="img"
        aria-label={sparklineLabel(i18n, series)}
        data-testid="history-chart"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-auto w-full max-w-md text-accent"
      >
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={LEFT}
              x2={WIDTH - RIGHT}
              y1={y(tick)}
              y2={y(tick)}
              className="stroke-slate-200 dark:stroke-slate-700"
              strokeWidth="1"
            />
            <text
              x={LEFT - 6}
              y={y(tick)}
              textAnchor="end"
              dominantBaseline="middle"
              className="fill-slate-600 text-[10px] tabular-nums dark:fill-slate-400"
            >
              {tick}
            </text>
          </g>
        ))}
        <text x={LEFT} y={HEIGHT - 6} textAnchor="start" className="fill-slate-600 text-[10px] dark:fill-slate-400">
          {formatDayTime(start, locale)}
        </text>
        {end > start && (
          <text x={WIDTH - RIGHT} y={HEIGHT - 6} textAnchor="end" className="fill-slate-600 text-[10px] dark:fill-slate-400">
            {formatDayTime(end, locale)}
          </text>
        )}
        {points.length > 1 && (
          <polyline
            points={points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' ')}
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinejoin="round"
            strokeLinecap="round"
          />
        )}
        {points.map(([px, py], index) => (
          <circle key={index} cx={px} cy={py} r="2.6" fill="currentColor" />
        ))}
      </svg>
    </figure>
  );
}
