import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useI18n } from '../i18n';
import { useNow } from '../useNow';
import { secondaryButtonClass } from '../styles';
import { PageStates } from '../page-links/page-states';
import { Disclaimers, LoadAllBar, retryableRows, SnapshotDetail, useRowName, type RowName } from '../page-links/row-parts';
import { usePageLinkRows } from '../page-links/queries';
import { exportableRows, sortRows, unloadedLinks, type LinkRow, type SortColumn, type SortState } from '../page-links/rows';
import { WatchToggle } from '../watchlist/WatchToggle';
import { exportFileName, exportRowsToCsv } from './export';
import { LinksTable, StackedLinks, type LinksViewProps } from './LinksViews';

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
