// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { I18nProvider } from '@/components/i18n';
import { PopupApp } from '@/components/popup/PopupApp';
import { CardWatchToggle, WatchToggle } from '@/components/watchlist/WatchToggle';
import { Sparkline, layout } from '@/components/watchlist/Sparkline';
import { FIXTURE_NOW } from '../../fixtures/snapshot';
import { fakeApi, pageLink, readyResult, testQueryClient } from '../popup/helpers';
import { fakeWatchlistApi, watchWithScores } from './helpers';

beforeEach(() => fakeBrowser.reset());
afterEach(() => cleanup());

const link = pageLink(1);
const request = { origin: link.origin, token: link.token };

function wrap(children: ReactNode, language: 'en' | 'fr' = 'en') {
  return (
    <QueryClientProvider client={testQueryClient()}>
      <I18nProvider language={language}>{children}</I18nProvider>
    </QueryClientProvider>
  );
}

describe('watch toggle', () => {
  it('off by default; says what each refresh costs; pressing it watches (no snapshot fetch) and says it is on', async () => {
    const api = fakeWatchlistApi();
    render(wrap(<CardWatchToggle request={request} api={api} />));
    const toggle = await screen.findByTestId('watch-toggle');
    await waitFor(() => expect(toggle.getAttribute('aria-busy')).toBe('false'));
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    const hint = document.getElementById(toggle.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toBe(
      'Follow this company: it is refreshed once a day. Each refresh counts as one view for the founder who shared it.',
    );
    await userEvent.setup().click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-pressed')).toBe('true'));
    expect(api.watch).toHaveBeenCalledWith(request);
    expect(hint?.textContent).toContain('each refresh counts as one view for the founder');
    expect(toggle.textContent).toBe('Watching');
  });

  it('pressing it again unwatches', async () => {
    const watched = watchWithScores(1, 'Kobo Ledger Ltd', [70]);
    const api = fakeWatchlistApi([watched]);
    render(wrap(<CardWatchToggle request={{ origin: watched.watch.origin, token: watched.watch.token }} api={api} />));
    const toggle = await screen.findByTestId('watch-toggle');
    await waitFor(() => expect(toggle.getAttribute('aria-pressed')).toBe('true'));
    await userEvent.setup().click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-pressed')).toBe('false'));
    expect(api.unwatch).toHaveBeenCalledWith(watched.watch.id);
  });

  it('a full watchlist is said plainly, in French too', async () => {
    const api = fakeWatchlistApi();
    api.watch.mockRejectedValueOnce(Object.assign(new Error('full'), { name: 'WatchlistFullError' }));
    render(wrap(<CardWatchToggle request={request} api={api} />, 'fr'));
    const toggle = await screen.findByTestId('watch-toggle');
    await waitFor(() => expect(toggle.getAttribute('aria-busy')).toBe('false'));
    await userEvent.setup().click(toggle);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Votre liste de suivi est pleine (100 liens). Arrêtez d’abord de suivre une entreprise.',
    );
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
  });

  it('renders nothing where no watchlist is provided', () => {
    const { container } = render(wrap(<WatchToggle request={request} />));
    expect(container.textContent).toBe('');
  });

  it('the popup’s link detail offers it for a loaded snapshot', async () => {
    const api = fakeApi({ scan: { status: 'links', links: [link] }, cached: { [link.token]: readyResult('Kobo Ledger Ltd') } });
    const watchlist = fakeWatchlistApi();
    render(<PopupApp api={api} watchlist={watchlist} queryClient={testQueryClient()} now={FIXTURE_NOW} />);
    const user = userEvent.setup();
    await user.click(await screen.findByText('Kobo Ledger Ltd'));
    const toggle = await within(screen.getByTestId('link-detail')).findByTestId('watch-toggle');
    await waitFor(() => expect(toggle.getAttribute('aria-busy')).toBe('false'));
    await user.click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-pressed')).toBe('true'));
    expect(api.getSnapshot).not.toHaveBeenCalled();
    expect(api.refreshSnapshot).not.toHaveBeenCalled();
  });
});

describe('popup compact watchlist', () => {
  it('the same test ids, refresh all with its cost, and a row opens the side panel at that company', async () => {
    const kobo = watchWithScores(1, 'Kobo Ledger Ltd', [70, 76]);
    const watchlist = fakeWatchlistApi([kobo]);
    render(<PopupApp api={fakeApi()} watchlist={watchlist} queryClient={testQueryClient()} now={FIXTURE_NOW} />);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('watchlist-tab'));
    const row = await screen.findByTestId('watch-row');
    expect(within(row).getByTestId('company-name').textContent).toBe('Kobo Ledger Ltd');
    expect(within(row).getByTestId('readiness-score').textContent).toBe('76');
    expect(within(row).getByTestId('risk-band').textContent).toBe('Fundraising risk: Medium');
    expect(within(row).getByTestId('watch-change').textContent).toBe('+6');
    expect(within(row).getByTestId('sparkline')).toBeTruthy();
    expect(screen.getByTestId('watch-refresh-all').textContent).toBe('Refresh all now (counts 1 view)');
    await user.click(within(row).getByRole('button'));
    expect(watchlist.openSidePanel).toHaveBeenCalledWith(kobo.watch.id);
  });

  it('a load failure with Try again, then the empty list, as in the side panel', async () => {
    const watchlist = fakeWatchlistApi([]);
    watchlist.list.mockRejectedValueOnce(new Error('storage is unavailable'));
    render(<PopupApp api={fakeApi()} watchlist={watchlist} queryClient={testQueryClient()} now={FIXTURE_NOW} />);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('watchlist-tab'));
    expect((await screen.findByText(/could not be read/)).textContent).toBe(
      'The watchlist could not be read: storage is unavailable',
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByTestId('watchlist-empty')).textContent).toContain('refreshes it once a day');
  });

  it('the Watchlist tab is keyboard-reachable with the arrow keys', async () => {
    render(<PopupApp api={fakeApi()} watchlist={fakeWatchlistApi()} queryClient={testQueryClient()} now={FIXTURE_NOW} />);
    const user = userEvent.setup();
    const pageTab = await screen.findByRole('tab', { name: 'On this page' });
    pageTab.focus();
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByTestId('watchlist-tab'));
    expect(screen.getByTestId('watchlist-tab').getAttribute('aria-selected')).toBe('true');
  });
});

describe('sparkline', () => {
  it('spreads samples by time and keeps a 10-point span so small moves stay small', () => {
    const points = layout(
      [
        { at: 0, score: 70 },
        { at: 1, score: 71 },
        { at: 3, score: 70 },
      ],
      100,
      20,
    );
    expect(points.map(([x]) => Math.round(x))).toEqual([3, 34, 97]);
    const ys = points.map(([, y]) => y);
    expect(Math.max(...ys) - Math.min(...ys)).toBeLessThan(2);
  });

  it('has a text alternative for no, one and many refreshes', () => {
    render(
      wrap(
        <>
          <Sparkline series={[]} />
          <Sparkline series={[{ at: 0, score: 50 }]} />
        </>,
      ),
    );
    expect(screen.getAllByTestId('sparkline').map((svg) => svg.getAttribute('aria-label'))).toEqual([
      'No readiness figures yet',
      'One refresh so far: readiness score 50',
    ]);
  });
});
