// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { PopupApp } from '@/components/popup/PopupApp';
import { SidePanelApp } from '@/components/sidepanel/SidePanelApp';
import { watchlistToCsv } from '@/components/watchlist/export';
import { appTranslator } from '@/lib/core/i18n';
import { snapshotError, snapshotResultSchema } from '@/lib/core/schemas/results';
import type { PageLink } from '@/lib/protocol/page-links';
import { FIXTURE_NOW } from '../fixtures/snapshot';
import { buildPoint } from '../fixtures/watchlist';
import { SAVABLE_COPY } from '../fixtures/signing';
import { fakeApi, pageLink, readyResult, testQueryClient } from './popup/helpers';
import { fakeWatchlistApi, watchWithScores } from './watchlist/helpers';

/** Lists that name each row by what the reader knows and say only true things (issue #27 item 6). */

beforeEach(() => fakeBrowser.reset());
afterEach(() => cleanup());

const MINUTE = 60_000;
const [kobo, sahel, naira] = [pageLink(1), pageLink(2), pageLink(3)];

describe('the page’s links', () => {
  it('a row is named by its company once known, else by the link’s words when they are words, else by its service and token (issue #33 item 12)', async () => {
    const withText: PageLink & { text: string } = { ...naira, text: '  Series A data room ' };
    const rawUrl: PageLink & { text: string } = { ...sahel, text: `http://127.0.0.1:8787/share/${sahel.token}` };
    const wrapped = {
      ...pageLink(4),
      text: `https://urldefense.com/v3/__http://127.0.0.1:8787/share/${'x'.repeat(180)}__;!!K-Hz7m0Vt54!lqpl1S$`,
    };
    const loadedRaw = { ...kobo, text: `http://localhost:8787/share/${kobo.token}` };
    const api = fakeApi({
      scan: { status: 'links', links: [loadedRaw, withText, rawUrl, wrapped] },
      cached: { [kobo.token]: readyResult('Kobo Ledger Ltd') },
    });
    render(<PopupApp api={api} queryClient={testQueryClient()} now={FIXTURE_NOW} />);
    await screen.findByText('Kobo Ledger Ltd');
    expect(screen.getAllByTestId('row-company').map((name) => name.textContent)).toEqual([
      'Kobo Ledger Ltd',
      'Series A data room',
      `localhost:8787 share link · ${sahel.token.slice(0, 6)}…`,
      `localhost:8787 share link · ${wrapped.token.slice(0, 6)}…`,
    ]);
    // A loaded row does not repeat its raw address in quotes.
    expect(screen.getAllByTestId('page-link-row')[0]?.textContent).not.toContain('http://');
  });

  it('a row whose signature fails says so before its figures, in the popup and in the side panel’s table (issue #36)', async () => {
    const failing = snapshotResultSchema.parse({
      ...readyResult('Kobo Ledger Ltd'),
      signature: { state: 'invalid', reason: 'bad-signature', message: 'does not verify' },
    });
    const cached = { [kobo.token]: failing, [sahel.token]: readyResult('Sahel Pay SA') };
    const popup = render(
      <PopupApp
        api={fakeApi({ scan: { status: 'links', links: [kobo, sahel] }, cached })}
        queryClient={testQueryClient()}
        now={FIXTURE_NOW}
      />,
    );
    await screen.findByText('Sahel Pay SA');
    const [koboRow, sahelRow] = screen.getAllByTestId('page-link-row');
    const warning = within(koboRow!).getByTestId('row-signature-invalid');
    expect(warning.textContent).toBe('Signature invalid: these figures may not be what the service sent');
    expect(
      warning.compareDocumentPosition(within(koboRow!).getByTestId('row-figures').lastElementChild!) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(within(sahelRow!).queryByTestId('row-signature-invalid')).toBeNull();
    popup.unmount();

    render(
      <SidePanelApp
        api={fakeApi({ scan: { status: 'links', links: [kobo, sahel] }, cached })}
        watchlist={fakeWatchlistApi([])}
        queryClient={testQueryClient()}
        now={FIXTURE_NOW}
      />,
    );
    await screen.findByText('Sahel Pay SA');
    expect(screen.getAllByTestId('row-signature-invalid')).toHaveLength(1);
  });

  it('one link written on both names of the local server is one row (issue #33 item 14)', async () => {
    const alias = { ...kobo, origin: 'http://127.0.0.1:8787', canonicalKey: `http://127.0.0.1:8787|${kobo.token}` };
    const api = fakeApi({ scan: { status: 'links', links: [kobo, sahel, alias] } });
    render(<PopupApp api={api} queryClient={testQueryClient()} now={FIXTURE_NOW} />);
    await waitFor(() => expect(screen.getAllByTestId('page-link-row')).toHaveLength(2));
  });

  it('offline: says which loads failed, never "every snapshot is loaded", and offers to try those again', async () => {
    const offline = snapshotError('NETWORK', 'Failed to fetch');
    const api = fakeApi({
      scan: { status: 'links', links: [kobo, sahel, naira] },
      cached: { [kobo.token]: readyResult('Kobo Ledger Ltd') },
      fetched: { [sahel.token]: offline, [naira.token]: offline },
    });
    render(<PopupApp api={api} queryClient={testQueryClient()} now={FIXTURE_NOW} />);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('load-all'));
    const status = await screen.findByText('1 snapshot loaded · 2 links could not be loaded');
    expect(status.getAttribute('role')).toBe('status');
    expect(screen.queryByText('Every snapshot on this page is loaded.')).toBeNull();
    const retry = screen.getByTestId('retry-failed');
    expect(retry.textContent).toBe('Try the 2 failed links again (counts up to 2 views)');
    api.getSnapshot.mockResolvedValue(readyResult('Sahel Pay SA'));
    await user.click(retry);
    expect(await screen.findByText('Every snapshot on this page is loaded.')).toBeTruthy();
    expect(api.getSnapshot).toHaveBeenCalledTimes(4);
  });

  it('a revoked link is not offered another try (it would only cost a request)', async () => {
    const api = fakeApi({
      scan: { status: 'links', links: [kobo] },
      cached: { [kobo.token]: snapshotError('NOT_FOUND', 'unknown token') },
    });
    render(<PopupApp api={api} queryClient={testQueryClient()} now={FIXTURE_NOW} />);
    expect(await screen.findByText('1 link could not be loaded')).toBeTruthy();
    expect(screen.queryByTestId('retry-failed')).toBeNull();
    expect(screen.queryByTestId('load-all')).toBeNull();
  });

  it('the empty state does not say "no services yet" while the settings are still being read', async () => {
    let settle: () => void = () => undefined;
    const api = fakeApi({ scan: { status: 'links', links: [] } });
    const real = api.getSettings.getMockImplementation()!;
    api.getSettings.mockImplementation(() => new Promise((resolve) => (settle = () => resolve(real()))));
    render(<PopupApp api={api} queryClient={testQueryClient()} now={FIXTURE_NOW} />);
    const empty = await screen.findByTestId('page-empty');
    expect(empty.textContent).not.toContain('no services yet');
    expect(empty.textContent).toContain('Compliance Lens lists links to the services in your settings.');
    await act(async () => settle());
    await waitFor(() => expect(screen.getByTestId('page-empty').textContent).toContain('Local dev server'));
  });
});

describe('the watchlist', () => {
  function renderWatchlist(watches: ReturnType<typeof watchWithScores>[], now = FIXTURE_NOW) {
    const watchlist = fakeWatchlistApi(watches);
    render(
      <SidePanelApp api={fakeApi()} watchlist={watchlist} queryClient={testQueryClient()} now={now} initialView="watchlist" />,
    );
    return { watchlist, user: userEvent.setup() };
  }
  const rowOf = async (company: string) =>
    (await screen.findAllByTestId('watch-row')).find((row) => within(row).getByTestId('company-name').textContent === company)!;

  it('a refresh a few seconds "in the future" (the service’s clock ahead of ours) happened just now', async () => {
    renderWatchlist([watchWithScores(1, 'Kobo Ledger Ltd', [70, 76], { lastRefreshAt: FIXTURE_NOW + 2000 })]);
    const row = await rowOf('Kobo Ledger Ltd');
    expect(row.textContent).toContain('Refreshed just now');
    expect(row.textContent).not.toMatch(/in \d+ seconds?/);
  });

  it('an ended watch shows its last figures in grey, and says they are no longer refreshed', async () => {
    const ended = watchWithScores(1, 'Abuja Remit Ltd', [93], {
      status: 'ended',
      end: { code: 'NOT_FOUND', at: FIXTURE_NOW - 5 * MINUTE },
      nextDueAt: null,
    });
    renderWatchlist([ended]);
    const row = await rowOf('Abuja Remit Ltd');
    expect(row.textContent).toContain('Link revoked or unknown · ended 5 minutes ago · Last known figures, no longer refreshed.');
    const score = within(row).getByTestId('readiness-score').closest('.ring-1');
    expect(score?.className).toContain('tone-neutral');
    expect(score?.className).not.toContain('tone-green');
  });

  it('a failed refresh says when it is tried again, once (not also "next refresh")', async () => {
    const failing = watchWithScores(1, 'Lagos Custody Ltd', [76], {
      lastError: { code: 'NETWORK', at: FIXTURE_NOW - MINUTE, retryAt: FIXTURE_NOW + 5 * MINUTE },
      nextDueAt: FIXTURE_NOW + 5 * MINUTE,
    });
    renderWatchlist([failing]);
    const row = await rowOf('Lagos Custody Ltd');
    expect(row.textContent).toContain('Last refresh failed (Could not reach the service); next try in 5 minutes');
    expect(row.textContent).not.toContain('next refresh');
  });

  it('"Refresh all now" where every refresh failed is said as a failure, not in success green', async () => {
    const { watchlist, user } = renderWatchlist([watchWithScores(1, 'Kobo Ledger Ltd', [70])]);
    watchlist.refreshAll.mockResolvedValueOnce({ refreshed: 0, ended: 0, failed: 1 });
    await user.click(await screen.findByTestId('watch-refresh-all'));
    const notice = await screen.findByText('1 refresh failed.');
    expect(notice.className).toContain('red');
    expect(notice.className).not.toContain('emerald');
  });

  it('the details chart has a score axis and a time axis', async () => {
    const { user } = renderWatchlist([watchWithScores(1, 'Kobo Ledger Ltd', [60, 70, 76])]);
    await user.click(await screen.findByRole('button', { name: 'Details for Kobo Ledger Ltd' }));
    const chart = await screen.findByTestId('history-chart');
    const labels = [...chart.querySelectorAll('text')].map((text) => text.textContent);
    expect(labels).toEqual(['60', '68', '76', '20 Nov, 08:00', '22 Nov, 08:00']);
  });

  it('deleting every watch is confirmed with a destructive button', async () => {
    const { user } = renderWatchlist([watchWithScores(1, 'Kobo Ledger Ltd', [70])]);
    await user.click(await screen.findByRole('button', { name: 'Delete all…' }));
    const confirm = screen.getByRole('button', { name: 'Delete every watch and its history' });
    expect(confirm.className).toContain('bg-tone-red-solid');
  });

  it('each refresh says whether its snapshot was verified, in the history and in the CSV; the details save the last verified copy (issue #36)', async () => {
    const signed = { state: 'verified' as const, kid: 'kid-1', signedAt: FIXTURE_NOW };
    const copy = SAVABLE_COPY;
    const base = watchWithScores(1, 'Kobo Ledger Ltd', [70, 72, 76], { copy });
    const points = base.points.map((point, index) =>
      index === 0
        ? point
        : {
            ...point,
            signature: index === 1 ? { state: 'invalid' as const, reason: 'bad-signature' as const, message: 'x' } : signed,
          },
    );
    const csv = watchlistToCsv(appTranslator('en', 'en-GB'), [{ watch: base.watch, points }]);
    const [header, ...rows] = csv.trimEnd().split('\r\n');
    expect(header).toContain('"View count","Signature","Disclaimer"');
    expect(rows.map((row) => /,("Signature [a-z]+"|),"[^"]*"$/.exec(row)?.[1] ?? 'no match')).toEqual([
      '',
      '"Signature invalid"',
      '"Signature verified"',
    ]);

    const { user } = renderWatchlist([{ watch: base.watch, points }]);
    await user.click(await screen.findByRole('button', { name: 'Details for Kobo Ledger Ltd' }));
    const history = await screen.findByTestId('watch-history');
    // Newest first.
    expect(
      within(history)
        .getAllByTestId('watch-history-signature')
        .map((cell) => cell.textContent),
    ).toEqual(['Signature verified', 'Signature invalid']);
    expect(screen.getByRole('button', { name: 'Save a verifiable copy of Kobo Ledger Ltd’s last refresh' })).toBeTruthy();
  });

  it('the CSV names product classes and ARIP stages and says why a watch ended, in words', () => {
    const { watch, points } = watchWithScores(1, 'Kobo Ledger Ltd', [70], {
      status: 'ended',
      end: { code: 'EXPIRED', at: FIXTURE_NOW },
    });
    const csv = watchlistToCsv(appTranslator('en', 'en-GB'), [
      { watch, points: points.map(() => buildPoint({ productClassification: 'PAYMENT', aripStage: 'aip_active' })) },
    ]);
    const row = csv.split('\r\n')[1] ?? '';
    expect(row).toContain('"ended: link expired"');
    expect(row).toContain('"Payment product"');
    expect(row).toContain('"Stage 4: AIP — Active"');
    expect(row).not.toMatch(/PAYMENT|aip_active|EXPIRED/);
  });
});
