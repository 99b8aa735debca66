import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useI18n } from '../i18n';
import { useNow } from '../useNow';
import { focusRing, secondaryButtonClass } from '../styles';
import { PageStates } from '../page-links/page-states';
import {
  Disclaimers,
  Expiry,
  LinkText,
  LoadAllBar,
  retryableRows,
  RowFigures,
  RowStatus,
  SnapshotDetail,
  useRowName,
  type RowName,
} from '../page-links/row-parts';
import { readinessLabelName, riskBandName } from '@/lib/core/vocabulary';
import { READINESS_TONE, RISK_TONE } from '../tones';
import { usePageLinkRows } from '../page-links/queries';
import {
  exportableRows,
  SORT_COLUMNS,
  sortRows,
  unloadedLinks,
  type LinkRow,
  type SortColumn,
  type SortState,
} from '../page-links/rows';
import { WatchToggle } from '../watchlist/WatchToggle';
import { exportFileName, exportRowsToCsv } from './export';

/** The side panel's "On this page": the page's share links as a sortable table, a detail, CSV export. */
export function PageLinksPanel({
  now,
  saveFile,
}: {
  now: number | undefined;
  saveFile: (fileName: string, text: string) => void;
}) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const { target, tab, scan, rows, loader } = usePageLinkRows();
  const [sort, setSort] = useState<SortState | null>(null);
  // A selection belongs to the tab it was made in: on another tab or page it means nothing.
  const [selection, setSelection] = useState<{ tabId: number | undefined; key: string } | null>(null);
  const selectedKey = selection !== null && selection.tabId === tab?.tabId ? selection.key : null;
  const setSelectedKey = (key: string | null) => setSelection(key === null ? null : { tabId: tab?.tabId, key });
  const [exported, setExported] = useState<number | null>(null);
  const currentNow = useNow(now);
  const rowName = useRowName();
  // A state, not a ref: the list's box appears only once the page's links are known.
  const [listBox, setListBox] = useState<HTMLDivElement | null>(null);
  const narrow = useNarrow(listBox);
  const sortBy = (column: SortColumn) =>
    setSort((current) => ({
      column,
      direction: current?.column === column && current.direction === 'ascending' ? 'descending' : 'ascending',
    }));

  const named = useMemo(() => rows.map((row) => ({ row, name: rowName(row) })), [rows, rowName]);
  const visible = useMemo(() => {
    if (!sort) return named;
    const order = sortRows(
      named.map(({ row }) => row),
      sort,
      locale,
    );
    return order.flatMap((row) => named.filter((entry) => entry.row === row));
  }, [named, sort, locale]);
  const selected = named.find(({ row }) => row.link.canonicalKey === selectedKey) ?? null;

  // Only rows with an answer: a row not loaded yet is a blank line in a spreadsheet.
  const exportable = exportableRows(visible.map(({ row }) => row));
  const exportHintId = useId();
  function exportCsv() {
    saveFile(exportFileName(i18n, currentNow), exportRowsToCsv(i18n, exportable));
    setExported(exportable.length);
  }

  const linksView: LinksViewProps = {
    rows: visible,
    sort,
    onSort: sortBy,
    selectedKey,
    onSelect: setSelectedKey,
    now: currentNow,
  };
  return (
    <PageStates pageLinks={{ target, tab, scan }}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="text-xs text-slate-600 dark:text-slate-300" data-testid="page-links-summary">
          {t('pageLinks.summary', { count: rows.length })}
        </p>
        <span className="flex flex-col items-end gap-0.5">
          <button
            type="button"
            className={secondaryButtonClass}
            onClick={exportCsv}
            disabled={exportable.length === 0}
            title={t('panel.exportTitle')}
            aria-describedby={exportable.length === 0 ? exportHintId : undefined}
            data-testid="export-csv"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 16 16"
              className="h-3.5 w-3.5"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.6"
            >
              <path d="M8 2v8M4.5 6.5 8 10l3.5-3.5M2.5 13.5h11" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            {t('panel.export', { count: exportable.length })}
          </button>
          {exportable.length === 0 && (
            <span id={exportHintId} className="text-[11px] text-slate-600 dark:text-slate-400">
              {t('panel.exportNone')}
            </span>
          )}
        </span>
      </div>
      <p role="status" className="text-xs text-emerald-800 empty:hidden dark:text-emerald-300">
        {exported !== null ? t('panel.exported', { count: exported }) : null}
      </p>
      <LoadAllBar
        rows={rows}
        onLoad={() => loader.load(unloadedLinks(rows))}
        onRetry={() => loader.load(retryableRows(rows).map((row) => row.link))}
      />
      <div ref={setListBox}>{narrow ? <StackedLinks {...linksView} /> : <LinksTable {...linksView} />}</div>
      {selected && (
        <DetailRegion
          row={selected.row}
          name={selected.name}
          now={now}
          onClose={() => setSelectedKey(null)}
          onLoad={() => loader.load([selected.row.link])}
          onRefresh={() => loader.load([selected.row.link], 'refresh')}
        />
      )}
      <Disclaimers rows={rows} />
    </PageStates>
  );
}

/** Below this width (a side panel's usual one) the links are stacked rows, not a table (issue #33 item 11). */
const TABLE_MIN_WIDTH = 448;

/** Whether the element is narrower than a table needs; unknown (not laid out yet), it is not. */
function useNarrow(element: HTMLElement | null): boolean {
  const [narrow, setNarrow] = useState(false);
  useLayoutEffect(() => {
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const width = element.getBoundingClientRect().width;
      setNarrow(width > 0 && width < TABLE_MIN_WIDTH);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    measure();
    return () => observer.disconnect();
  }, [element]);
  return narrow;
}

/** What the table and the stacked rows show: the rows named, their sorting and the selection. */
interface LinksViewProps {
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
function StackedLinks({ rows, sort, onSort, selectedKey, onSelect, now }: LinksViewProps) {
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
function LinksTable({ rows, sort, onSort, selectedKey, onSelect, now }: LinksViewProps) {
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

function DetailRegion({
  row,
  name,
  now,
  onClose,
  onLoad,
  onRefresh,
}: {
  row: LinkRow;
  name: RowName;
  now: number | undefined;
  onClose: () => void;
  onLoad: () => void;
  onRefresh: () => void;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), [row.link.canonicalKey]);
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Escape from anywhere in the detail closes it
    <section
      ref={ref}
      tabIndex={-1}
      aria-labelledby={headingId}
      data-testid="link-detail"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
      className="flex flex-col gap-2 rounded-xl border border-slate-200 p-3 outline-none focus-visible:ring-2 focus-visible:ring-accent dark:border-slate-800"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id={headingId} className="text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
          {t('panel.details')} · <span className="normal-case">{name.children}</span>
        </h2>
        <button type="button" onClick={onClose} className={`text-xs ${secondaryButtonClass}`}>
          {t('panel.closeDetails')}
        </button>
      </div>
      <SnapshotDetail
        row={row}
        onLoad={onLoad}
        onRefresh={onRefresh}
        watchControl={<WatchToggle request={row.link} />}
        {...(now !== undefined ? { now } : {})}
      />
    </section>
  );
}
