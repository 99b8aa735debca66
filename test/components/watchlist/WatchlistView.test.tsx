// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { SidePanelApp } from '@/components/sidepanel/SidePanelApp';
import { setLanguagePreference } from '@/lib/extension/language-preference';
import { CSV_BOM } from '@/lib/core/csv';
import { DISCLAIMER, FIXTURE_NOW } from '../../fixtures/snapshot';
import { fakeApi, testQueryClient } from '../popup/helpers';
import { withPoint } from '@/lib/background/watchlist/store';
import { buildPoint, buildWatch } from '@/test/fixtures/watchlist';
import { fakeWatchlistApi, watchWithScores } from './helpers';

beforeEach(() => fakeBrowser.reset());
afterEach(() => cleanup());

const kobo = watchWithScores(1, 'Kobo Ledger Ltd', [60, 62, 63, 64, 66, 68, 70, 76]);
const abuja = watchWithScores(2, 'Abuja Remit Ltd', [41, 38]);
const zed = watchWithScores(3, '=HYPERLINK("http://evil.example","Zed")', [90], {
  status: 'ended',
  end: { code: 'NOT_FOUND', at: FIXTURE_NOW - 3600_000 },
  nextDueAt: null,
});

function renderPanel(watchlist = fakeWatchlistApi([kobo, abuja, zed]), initialView: 'page' | 'watchlist' = 'watchlist') {
  const saveFile = vi.fn<(fileName: string, text: string) => void>();
  render(
    <SidePanelApp
      api={fakeApi()}
      watchlist={watchlist}
      queryClient={testQueryClient()}
      now={FIXTURE_NOW}
      initialView={initialView}
      saveFile={saveFile}
    />,
  );
  return { watchlist, saveFile, user: userEvent.setup() };
}

const rows = () => screen.getAllByTestId('watch-row');
const names = () => rows().map((row) => within(row).getByTestId('company-name').textContent);

describe('side panel watchlist', () => {
  it('the Watchlist tab shows one row per watched company: score, band, change since the previous refresh, sparkline', async () => {
    const { user } = renderPanel(undefined, 'page');
    await user.click(await screen.findByTestId('watchlist-tab'));
    expect(screen.getByTestId('watchlist-tab').getAttribute('aria-selected')).toBe('true');
    await screen.findAllByTestId('watch-row');
    expect(names()).toEqual(['=HYPERLINK("http://evil.example","Zed")', 'Abuja Remit Ltd', 'Kobo Ledger Ltd']);
    const koboRow = rows()[2]!;
    expect(within(koboRow).getByTestId('readiness-score').textContent).toBe('76');
    expect(within(koboRow).getByTestId('risk-band').textContent).toBe('Fundraising risk: Medium');
    // Each figure says what it is (issue #27 items 5 and 6): no bare score, no bare change.
    expect(koboRow.textContent).toContain('Readiness 76/100 · In Progress');
    expect(koboRow.textContent).toContain('+6since the previous refresh');
    expect(within(koboRow).getByTestId('watch-change').textContent).toBe('+6');
    expect(within(koboRow).getByText('+16 in a week')).toBeTruthy();
    expect(within(koboRow).getByTestId('sparkline').getAttribute('aria-label')).toBe(
      'Readiness score over 8 refreshes: from 60 to 76, lowest 60, highest 76',
    );
    expect(within(rows()[1]!).getByTestId('watch-change').textContent).toBe('\u22123');
    expect(within(rows()[0]!).getByTestId('watch-change').textContent).toBe('—');
    expect(within(rows()[0]!).getByText(/Link revoked or unknown · ended/)).toBeTruthy();
    // The snapshots' own disclaimer goes with the figures.
    expect(within(screen.getByTestId('watch-disclaimers')).getByTestId('disclaimer').textContent).toBe(DISCLAIMER);
  });

  it('sorts by readiness and change, either way, with a keyboard-usable select and button; empty values last', async () => {
    const { user } = renderPanel();
    await screen.findAllByTestId('watch-row');
    await user.selectOptions(screen.getByTestId('watch-sort'), 'readiness');
    expect(names()).toEqual(['Abuja Remit Ltd', 'Kobo Ledger Ltd', '=HYPERLINK("http://evil.example","Zed")']);
    await user.click(screen.getByTestId('watch-sort-direction'));
    expect(screen.getByTestId('watch-sort-direction').getAttribute('aria-pressed')).toBe('true');
    expect(names()).toEqual(['=HYPERLINK("http://evil.example","Zed")', 'Kobo Ledger Ltd', 'Abuja Remit Ltd']);
    await user.selectOptions(screen.getByTestId('watch-sort'), 'change');
    expect(names()).toEqual(['Kobo Ledger Ltd', 'Abuja Remit Ltd', '=HYPERLINK("http://evil.example","Zed")']);
  });

  it('"Refresh all now" states its cost first (ended watches do not count), then shows the new score and change', async () => {
    const { watchlist, user } = renderPanel();
    await screen.findAllByTestId('watch-row');
    const button = screen.getByTestId('watch-refresh-all');
    expect(button.textContent).toBe('Refresh all now (counts 2 views)');
    watchlist.setNextScore(kobo.watch.id, 82);
    await user.click(button);
    await waitFor(() => expect(within(rows()[2]!).getByTestId('readiness-score').textContent).toBe('82'));
    expect(within(rows()[2]!).getByTestId('watch-change').textContent).toBe('+6');
    expect(screen.getByText('2 links refreshed.').className).toContain('emerald');
    expect(watchlist.refreshAll).toHaveBeenCalledTimes(1);
  });

  it('one action on each row, Details; refresh (its cost said), mute (pressed) and unwatch (after confirming) are inside', async () => {
    const { watchlist, user } = renderPanel();
    await screen.findAllByTestId('watch-row');
    for (const row of rows())
      expect(
        within(row)
          .getAllByRole('button')
          .map((button) => button.textContent),
      ).toEqual(['Details']);
    for (const company of ['Kobo Ledger Ltd', 'Abuja Remit Ltd', '=HYPERLINK("http://evil.example","Zed")'])
      await user.click(screen.getByRole('button', { name: `Details for ${company}` }));
    const refresh = screen.getByRole('button', { name: 'Refresh Kobo Ledger Ltd now (counts 1 view)' });
    expect(refresh.textContent).toBe('Refresh now (counts 1 view)');
    await user.click(refresh);
    expect(watchlist.refresh).toHaveBeenCalledWith(kobo.watch.id);
    const mute = screen.getByRole('button', { name: 'Mute notifications for Kobo Ledger Ltd' });
    await user.click(mute);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Unmute notifications for Kobo Ledger Ltd' }).getAttribute('aria-pressed')).toBe(
        'true',
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Stop watching Abuja Remit Ltd' }));
    expect(watchlist.unwatch).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Stop watching Abuja Remit Ltd and delete its history' }));
    await waitFor(() => expect(names()).not.toContain('Abuja Remit Ltd'));
    // An ended watch is not refreshed: no button offers it.
    expect(screen.queryByRole('button', { name: /Refresh =HYPERLINK/ })).toBeNull();
  });

  it('details: the changes since the previous refresh and every refresh with the view count reported', async () => {
    const { user } = renderPanel();
    await screen.findAllByTestId('watch-row');
    const details = screen.getByRole('button', { name: 'Details for Kobo Ledger Ltd' });
    await user.click(details);
    expect(details.getAttribute('aria-expanded')).toBe('true');
    const history = await screen.findByTestId('watch-history');
    expect(within(screen.getByTestId('watch-changes')).getByText('Readiness score 70 → 76 (+6)')).toBeTruthy();
    expect(
      within(history)
        .getAllByTestId('watch-history-views')
        .map((cell) => cell.textContent),
    ).toEqual(['10', '9', '8', '7', '6', '5', '4', '3']);
  });

  it('exports CSV (neutralised, no tokens) and JSON', async () => {
    const { saveFile, user } = renderPanel();
    await screen.findAllByTestId('watch-row');
    await user.click(screen.getByTestId('watch-export-csv'));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
    const [csvName, csv] = saveFile.mock.calls[0]!;
    expect(csvName).toBe('compliance-watchlist-2026-11-22.csv');
    expect(csv.startsWith(CSV_BOM)).toBe(false);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""Zed"")"`);
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(1 + 8 + 2 + 1);
    for (const { watch } of [kobo, abuja, zed]) expect(csv).not.toContain(watch.token);
    await user.click(screen.getByTestId('watch-export-json'));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(2));
    const [jsonName, json] = saveFile.mock.calls[1]!;
    expect(jsonName).toBe('compliance-watchlist-2026-11-22.json');
    const parsed: unknown = JSON.parse(json);
    expect(parsed).toMatchObject({ format: 'compliance-lens-watchlist', version: 1 });
    for (const { watch } of [kobo, abuja, zed]) expect(json).not.toContain(watch.token);
  });

  it('delete all asks first, then empties the list', async () => {
    const { watchlist, user } = renderPanel();
    await screen.findAllByTestId('watch-row');
    await user.click(screen.getByRole('button', { name: 'Delete all…' }));
    await user.click(screen.getByRole('button', { name: 'Delete every watch and its history' }));
    expect(await screen.findByTestId('watchlist-empty')).toBeTruthy();
    expect(watchlist.clear).toHaveBeenCalledTimes(1);
  });

  it('a notification’s focus request switches to the watchlist and opens that company', async () => {
    const watchlist = fakeWatchlistApi([kobo, abuja]);
    renderPanel(watchlist, 'page');
    await waitFor(() => expect(watchlist.watchFocus).toHaveBeenCalled());
    watchlist.requestFocus(abuja.watch.id);
    await waitFor(() => expect(screen.getByTestId('watchlist-tab').getAttribute('aria-selected')).toBe('true'));
    const row = (await screen.findAllByTestId('watch-row')).find((element) => element.dataset.watchId === abuja.watch.id)!;
    expect(await within(row).findByTestId('watch-history')).toBeTruthy();
  });

  it('in French', async () => {
    await setLanguagePreference('fr');
    renderPanel();
    await screen.findAllByTestId('watch-row');
    expect(screen.getByTestId('watch-refresh-all').textContent).toBe('Tout actualiser (compte 2 vues)');
    // One word for the list and for the toggle's state (issue #27 item 8), and Mute said plainly.
    expect(screen.getByTestId('watchlist-tab').textContent).toBe('Liste de suivi');
    expect(within(rows()[2]!).getByTestId('risk-band').textContent).toBe('Risque de levée de fonds : Moyen');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Détails de Kobo Ledger Ltd' }));
    expect(screen.getByRole('button', { name: 'Mettre en sourdine les notifications pour Kobo Ledger Ltd' }).textContent).toBe(
      'Mettre les notifications en sourdine',
    );
    // The service's disclaimer stays as written, marked as English, with a note saying so.
    const disclaimer = within(screen.getByTestId('watch-disclaimers')).getByTestId('disclaimer');
    expect(disclaimer.getAttribute('lang')).toBe('en');
    expect(screen.getByTestId('watch-disclaimers').textContent).toContain('Texte d’origine du service, en anglais.');
  });

  it("in French, a gap title inside a change line is the founder's own words, marked as English", async () => {
    await setLanguagePreference('fr');
    const before = buildPoint({ at: FIXTURE_NOW - 24 * 3600_000, gaps: [] });
    const after = buildPoint({ at: FIXTURE_NOW, gaps: [{ title: 'AML policy not board-approved', severity: 'critical' }] });
    const watch = [before, after].reduce(withPoint, buildWatch(7, { company: 'Kobo Ledger Ltd', lastRefreshAt: FIXTURE_NOW }));
    renderPanel(fakeWatchlistApi([{ watch, points: [before, after] }]));
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Détails de Kobo Ledger Ltd' }));
    const title = within(screen.getByTestId('watch-changes')).getByText('AML policy not board-approved');
    expect(title.getAttribute('lang')).toBe('en');
    expect(title.parentElement?.textContent).toMatch(/critique/i);
  });

  it('nothing watched: an empty state that says how to watch and what it costs', async () => {
    renderPanel(fakeWatchlistApi([]));
    expect((await screen.findByTestId('watchlist-empty')).textContent).toContain('refreshes it once a day');
  });

  it('a watchlist that cannot be read says why and offers Try again, which lists it once the background answers', async () => {
    const watchlist = fakeWatchlistApi([kobo]);
    watchlist.list.mockRejectedValueOnce(new Error('storage is unavailable'));
    const { user } = renderPanel(watchlist);
    expect((await screen.findByText(/could not be read/)).textContent).toBe(
      'The watchlist could not be read: storage is unavailable',
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByTestId('watch-row');
    expect(names()).toEqual(['Kobo Ledger Ltd']);
  });
});
