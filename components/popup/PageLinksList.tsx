import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../i18n';
import { useNow } from '../useNow';
import { hostOf } from '../page-links/api';
import { focusRing } from '../styles';
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
import { usePageLinkRows } from '../page-links/queries';
import { unloadedLinks, type LinkRow } from '../page-links/rows';
import { WatchToggle } from '../watchlist/WatchToggle';

/** The popup's "On this page": every share link found, cached ones at once, the rest on request. */
export function PageLinksList({ now }: { now?: number }) {
  const { t } = useI18n();
  const { target, tab, scan, rows, loader } = usePageLinkRows();
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const returnFocusTo = useRef<string | null>(null);
  const currentNow = useNow(now);
  const rowName = useRowName();

  const selectedIndex = rows.findIndex((row) => row.link.canonicalKey === selectedKey);
  const selected = selectedIndex === -1 ? null : rows[selectedIndex];

  // Back from the details: focus returns to the row that was opened.
  useEffect(() => {
    if (selected || !returnFocusTo.current) return;
    const key = returnFocusTo.current;
    returnFocusTo.current = null;
    listRef.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`)?.focus();
  }, [selected]);

  const cached = rows.filter((row) => row.result !== null && row.result !== undefined).length;

  return (
    <PageStates pageLinks={{ target, tab, scan }}>
      {selected ? (
        <DetailView
          row={selected}
          name={rowName(selected)}
          now={now}
          onBack={() => {
            returnFocusTo.current = selected.link.canonicalKey;
            setSelectedKey(null);
          }}
          onLoad={() => loader.load([selected.link])}
          onRefresh={() => loader.load([selected.link], 'refresh')}
        />
      ) : (
        <div className="flex flex-col gap-3">
          <p className="text-xs text-slate-600 dark:text-slate-300" data-testid="page-links-summary">
            {t('pageLinks.summary', { count: rows.length })}
            {cached > 0 && ` · ${t('pageLinks.cachedCount', { count: cached })}`}
          </p>
          <LoadAllBar
            rows={rows}
            onLoad={() => loader.load(unloadedLinks(rows))}
            onRetry={() => loader.load(retryableRows(rows).map((row) => row.link))}
          />
          <ul ref={listRef} aria-label={t('popup.tabs.page')} className="flex flex-col gap-1.5" data-testid="page-links">
            {rows.map((row) => (
              <li key={row.link.canonicalKey}>
                <RowButton
                  row={row}
                  name={rowName(row)}
                  now={currentNow}
                  onSelect={() => setSelectedKey(row.link.canonicalKey)}
                />
              </li>
            ))}
          </ul>
          <Disclaimers rows={rows} />
        </div>
      )}
    </PageStates>
  );
}

function RowButton({ row, name, now, onSelect }: { row: LinkRow; name: RowName; now: number; onSelect: () => void }) {
  const { t } = useI18n();
  const kind = t(row.link.kind === 'api' ? 'pageLinks.linkKind.api' : 'pageLinks.linkKind.share');
  return (
    <button
      type="button"
      data-testid="page-link-row"
      data-key={row.link.canonicalKey}
      data-state={row.loading ? 'loading' : row.ready ? 'ready' : row.error ? 'error' : row.result === null ? 'idle' : 'peeking'}
      onClick={onSelect}
      className={`flex w-full items-start gap-2 rounded-lg border border-slate-200 bg-white px-3 py-2.5 text-left hover:border-slate-400 hover:bg-slate-50 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-slate-600 dark:hover:bg-slate-800 ${focusRing}`}
    >
      <span className="flex min-w-0 flex-1 flex-col gap-1">
        <span
          className={`truncate text-sm ${row.company ? 'font-semibold text-slate-900 dark:text-white' : 'font-medium text-slate-800 dark:text-slate-100'}`}
          data-testid="row-company"
          title={name.title}
        >
          {name.children}
        </span>
        <LinkText row={row} />
        {row.ready ? <RowFigures row={row} /> : <RowStatus row={row} />}
        <span className="text-[11px] text-slate-600 dark:text-slate-400">
          {t('pageLinks.onService', { kind, host: hostOf(row.link.origin) ?? row.link.origin })}
          {row.expiresAt !== null && (
            <>
              {' · '}
              {t('snapshot.linkExpires')} <Expiry row={row} now={now} />
            </>
          )}
        </span>
      </span>
      <svg
        aria-hidden="true"
        viewBox="0 0 16 16"
        className="mt-0.5 h-4 w-4 shrink-0 text-slate-400"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      >
        <path d="M6 3.5 10.5 8 6 12.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </button>
  );
}

function DetailView({
  row,
  name,
  now,
  onBack,
  onLoad,
  onRefresh,
}: {
  row: LinkRow;
  name: RowName;
  now: number | undefined;
  onBack: () => void;
  onLoad: () => void;
  onRefresh: () => void;
}) {
  const { t } = useI18n();
  const backRef = useRef<HTMLButtonElement>(null);
  useEffect(() => backRef.current?.focus(), []);
  return (
    <div className="flex flex-col gap-3" data-testid="link-detail" aria-label={name.children} role="group">
      <button
        ref={backRef}
        type="button"
        onClick={onBack}
        title={t('detail.backTitle')}
        className={`inline-flex items-center gap-1 self-start rounded px-1 text-xs font-medium text-accent hover:underline ${focusRing}`}
      >
        <svg aria-hidden="true" viewBox="0 0 16 16" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth="1.8">
          <path d="M10 3.5 5.5 8l4.5 4.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        {t('detail.back')}
      </button>
      <SnapshotDetail
        row={row}
        onLoad={onLoad}
        onRefresh={onRefresh}
        watchControl={<WatchToggle request={row.link} />}
        {...(now !== undefined ? { now } : {})}
      />
    </div>
  );
}
