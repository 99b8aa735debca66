/** The side panel's list of the page's links: a sortable table, or stacked rows at a side panel's width (issue #33 item 11). */
import { useId } from 'react';
import { useI18n } from '../i18n';
import { focusRing } from '../styles';
import { Expiry, LinkText, RowFigures, RowStatus, SignatureFails, type RowName } from '../page-links/row-parts';
import { readinessLabelName, riskBandName } from '@/lib/core/vocabulary';
import { READINESS_TONE, RISK_TONE } from '../tones';
import { SORT_COLUMNS, type LinkRow, type SortColumn, type SortState } from '../page-links/rows';

/** What the table and the stacked rows show: the rows named, their sorting and the selection. */
export interface LinksViewProps {
  rows: readonly { row: LinkRow; name: RowName }[];
  sort: SortState | null;
  onSort: (column: SortColumn) => void;
  selectedKey: string | null;
  onSelect: (key: string) => void;
  now: number;
}

/**
 * The page's links at a side panel's width (issue #33 item 11): one stacked row each, the name on
 * the first line (cut with an ellipsis, whole in its tooltip), the score and the risk on the second;
 * the columns' sorting as a row of toggles above.
 */
export function StackedLinks({ rows, sort, onSort, selectedKey, onSelect, now }: LinksViewProps) {
  const i18n = useI18n();
  const { t } = i18n;
  const sortLabelId = useId();
  return (
    <div className="flex flex-col gap-2">
      <div role="group" aria-labelledby={sortLabelId} className="flex flex-wrap items-center gap-x-1 gap-y-1 text-xs">
        <span id={sortLabelId} className="mr-0.5 text-slate-600 dark:text-slate-300">
          {t('panel.sort')}
        </span>
        {SORT_COLUMNS.map((column) => {
          const active = sort?.column === column;
          return (
            <button
              key={column}
              type="button"
              aria-pressed={active}
              onClick={() => onSort(column)}
              data-testid={`sort-${column}`}
              className={`inline-flex items-center gap-0.5 rounded px-1.5 py-0.5 font-semibold ring-1 ring-inset ${
                active
                  ? 'bg-slate-100 text-slate-950 ring-slate-400 dark:bg-slate-800 dark:text-white dark:ring-slate-500'
                  : 'text-slate-700 ring-slate-200 hover:text-slate-950 dark:text-slate-200 dark:ring-slate-700 dark:hover:text-white'
              } ${focusRing}`}
            >
              {t(COLUMN_LABEL_KEY[column])}
              {active && (
                <span className="sr-only">
                  , {t(sort.direction === 'ascending' ? 'panel.sortedAscending' : 'panel.sortedDescending')}
                </span>
              )}
              <SortIcon direction={active ? sort.direction : null} />
            </button>
          );
        })}
      </div>
      <ul
        aria-label={t('panel.table.caption')}
        data-testid="links-list"
        className="flex flex-col rounded-lg border border-slate-200 dark:border-slate-800"
      >
        {rows.map(({ row, name }) => {
          const selected = row.link.canonicalKey === selectedKey;
          return (
            <li
              key={row.link.canonicalKey}
              data-testid="panel-row"
              data-state={rowState(row)}
              className={`flex min-w-0 flex-col gap-1 border-b border-slate-100 px-2.5 py-2 last:border-0 dark:border-slate-800/70 ${selected ? 'bg-slate-100 dark:bg-slate-800/70' : ''}`}
            >
              <RowNameButton name={name} selected={selected} onSelect={() => onSelect(row.link.canonicalKey)} fit="truncate" />
              <LinkText row={row} />
              <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-[11px] text-slate-600 dark:text-slate-400">
                {row.ready ? <RowFigures row={row} /> : <RowStatus row={row} />}
                {row.expiresAt !== null && (
                  <span>
                    {t('snapshot.linkExpires')} <Expiry row={row} now={now} />
                  </span>
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** A row's name, which selects it: cut with an ellipsis in a stacked row (whole in its tooltip), wrapped in the table. */
function RowNameButton({
  name,
  selected,
  onSelect,
  fit,
}: {
  name: RowName;
  selected: boolean;
  onSelect: () => void;
  fit: 'truncate' | 'wrap';
}) {
  const { t } = useI18n();
  return (
    <button
      type="button"
      aria-pressed={selected}
      aria-label={t('pageLinks.openDetails', { name: name.children })}
      title={name.title}
      onClick={onSelect}
      className={`block rounded text-left text-sm font-semibold text-accent hover:underline ${fit === 'truncate' ? 'w-full truncate' : 'max-w-full break-words'} ${focusRing}`}
      data-testid="row-company"
    >
      {name.children}
    </button>
  );
}

const rowState = (row: LinkRow) =>
  row.loading ? 'loading' : row.ready ? 'ready' : row.error ? 'error' : row.result === null ? 'idle' : 'peeking';

const COLUMN_LABEL_KEY = {
  company: 'panel.column.company',
  readiness: 'vocab.readinessHeading',
  band: 'vocab.riskHeading',
  expiry: 'panel.column.expiry',
} as const satisfies Record<SortColumn, string>;

/**
 * The page's links as a table. In a narrow panel (the usual side panel, under 28rem) the expiry
 * moves under the name, so every column fits without scrolling sideways.
 */
export function LinksTable({ rows, sort, onSort, selectedKey, onSelect, now }: LinksViewProps) {
  const i18n = useI18n();
  const { t } = i18n;
  const header = (column: SortColumn, className = '') => {
    const active = sort?.column === column;
    const label = t(COLUMN_LABEL_KEY[column]);
    return (
      <th
        scope="col"
        aria-sort={active ? sort.direction : 'none'}
        className={`px-1.5 py-1.5 text-left align-bottom font-medium ${className}`}
      >
        <button
          type="button"
          onClick={() => onSort(column)}
          data-testid={`sort-${column}`}
          className={`inline-flex items-center gap-1 rounded px-0.5 text-left text-xs font-semibold text-slate-700 hover:text-slate-950 dark:text-slate-200 dark:hover:text-white ${focusRing}`}
        >
          {label}
          <SortIcon direction={active ? sort.direction : null} />
        </button>
      </th>
    );
  };
  return (
    <div className="@container rounded-lg border border-slate-200 dark:border-slate-800">
      <table className="w-full border-collapse text-xs" data-testid="links-table">
        <caption className="sr-only">{t('panel.table.caption')}</caption>
        <thead className="bg-slate-50 dark:bg-slate-900">
          <tr className="border-b border-slate-200 dark:border-slate-800">
            {header('company', 'w-full min-w-[7.5rem]')}
            {header('readiness')}
            {header('band')}
            {header('expiry', 'hidden @md:table-cell')}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ row, name }) => {
            const selected = row.link.canonicalKey === selectedKey;
            return (
              <tr
                key={row.link.canonicalKey}
                data-testid="panel-row"
                data-state={rowState(row)}
                className={`border-b border-slate-100 last:border-0 dark:border-slate-800/70 ${selected ? 'bg-slate-100 dark:bg-slate-800/70' : ''}`}
              >
                <td className="px-1.5 py-2 align-top">
                  <span className="flex flex-col gap-0.5">
                    <RowNameButton name={name} selected={selected} onSelect={() => onSelect(row.link.canonicalKey)} fit="wrap" />
                    <LinkText row={row} />
                    {!row.ready && <RowStatus row={row} />}
                    <SignatureFails row={row} />
                    {row.expiresAt !== null && (
                      <span className="text-[11px] text-slate-600 @md:hidden dark:text-slate-400">
                        {t('snapshot.linkExpires')} <Expiry row={row} now={now} wrap />
                      </span>
                    )}
                  </span>
                </td>
                <td className="px-1.5 py-2 align-top">
                  {row.score !== null && row.label !== null && (
                    <span
                      className={`inline-flex flex-col rounded-md px-1.5 py-0.5 leading-tight ring-1 ring-inset ${READINESS_TONE[row.label]}`}
                    >
                      <span className="text-sm font-bold whitespace-nowrap tabular-nums">{row.score}/100</span>
                      <span className="text-[11px] font-medium">{readinessLabelName(i18n, row.label)}</span>
                    </span>
                  )}
                </td>
                <td className="px-1.5 py-2 align-top">
                  {row.band !== null && (
                    <span
                      className={`inline-block rounded-md px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${RISK_TONE[row.band]}`}
                    >
                      {riskBandName(i18n, row.band)}
                    </span>
                  )}
                </td>
                <td className="hidden px-1.5 py-2 align-top text-slate-700 @md:table-cell dark:text-slate-300">
                  <Expiry row={row} now={now} wrap />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function SortIcon({ direction }: { direction: 'ascending' | 'descending' | null }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 12 12" className={`h-3 w-3 ${direction ? '' : 'opacity-40'}`} fill="currentColor">
      {direction !== 'descending' && <path d="M6 1.5 9 5H3z" />}
      {direction !== 'ascending' && <path d="M6 10.5 3 7h6z" />}
    </svg>
  );
}
