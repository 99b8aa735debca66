// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { I18nProvider } from '@/components/i18n';
import { PopupApp } from '@/components/popup/PopupApp';
import { SidePanelApp } from '@/components/sidepanel/SidePanelApp';
import { CardWatchToggle } from '@/components/watchlist/WatchToggle';
import { watchRecordSchema } from '@/lib/core/schemas/watchlist';
import { FIXTURE_NOW } from '../fixtures/snapshot';
import { buildWatch } from '../fixtures/watchlist';
import { fakeApi, pageLink, readyResult, testQueryClient } from './popup/helpers';
import { fakeWatchlistApi, watchWithScores } from './watchlist/helpers';

/**
 * Hostile strings from a service or founder (issue #26 item 8): a name with a right-to-left override,
 * control characters and 900 characters is shown cleaned and cut to about 120 characters in every
 * row, with the whole (cleaned) name in its tooltip.
 */

beforeEach(() => fakeBrowser.reset());
afterEach(() => cleanup());

const HOSTILE = `\u202Egnp.exe\u202C Kobo\u0007 Ledger ${'Holdings '.repeat(100)}Ltd`;
const CLEANED = `gnp.exe Kobo Ledger ${'Holdings '.repeat(100)}Ltd`;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const BIDI_OR_CONTROL = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

function expectCleanAndShort(element: HTMLElement) {
  const shown = element.textContent ?? '';
  expect(shown).not.toMatch(BIDI_OR_CONTROL);
  expect([...shown].length).toBeLessThanOrEqual(120);
  expect(shown).toMatch(/^gnp\.exe Kobo Ledger Holdings .*…$/);
  expect(element.closest('[title]')?.getAttribute('title')).toBe(CLEANED);
}

describe('hostile names in rows', () => {
  it('side panel watchlist row', async () => {
    const watched = watchWithScores(1, HOSTILE, [60, 70]);
    render(
      <SidePanelApp
        api={fakeApi()}
        watchlist={fakeWatchlistApi([watched])}
        queryClient={testQueryClient()}
        now={FIXTURE_NOW}
        initialView="watchlist"
      />,
    );
    expectCleanAndShort(within(await screen.findByTestId('watch-row')).getByTestId('company-name'));
  });

  it('popup compact watchlist row', async () => {
    const watched = watchWithScores(1, HOSTILE, [60, 70]);
    render(
      <PopupApp api={fakeApi()} watchlist={fakeWatchlistApi([watched])} queryClient={testQueryClient()} now={FIXTURE_NOW} />,
    );
    await userEvent.setup().click(await screen.findByTestId('watchlist-tab'));
    expectCleanAndShort(within(await screen.findByTestId('watch-row')).getByTestId('company-name'));
  });

  it('side panel table and popup list of the page’s links', async () => {
    const link = pageLink(1);
    const api = fakeApi({ scan: { status: 'links', links: [link] }, cached: { [link.token]: readyResult(HOSTILE) } });
    const { unmount } = render(<SidePanelApp api={api} queryClient={testQueryClient()} now={FIXTURE_NOW} />);
    expectCleanAndShort(await screen.findByTestId('row-company'));
    unmount();
    render(<PopupApp api={api} queryClient={testQueryClient()} now={FIXTURE_NOW} />);
    expectCleanAndShort(await screen.findByTestId('row-company'));
  });
});

describe('a name over 1,000 characters', () => {
  it('is a watch record like any other (it used to make the link impossible to watch)', () => {
    const company = 'Kobo '.repeat(400);
    const parsed = watchRecordSchema.safeParse(buildWatch(1, { company }));
    expect(parsed.success).toBe(true);
  });

  it('a watch that cannot be added says so plainly, not with the parser’s message', async () => {
    const api = fakeWatchlistApi();
    api.watch.mockRejectedValueOnce(new Error('[{"code":"too_big","maximum":1000,"path":["company"]}]'));
    const link = pageLink(1);
    render(
      <QueryClientProvider client={testQueryClient()}>
        <I18nProvider language="en">
          <CardWatchToggle request={{ origin: link.origin, token: link.token }} api={api} />
        </I18nProvider>
      </QueryClientProvider>,
    );
    const toggle = await screen.findByTestId('watch-toggle');
    await waitFor(() => expect(toggle.getAttribute('aria-busy')).toBe('false'));
    await userEvent.setup().click(toggle);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('This link could not be added to the watchlist. Nothing was saved; try again later.');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
  });
});
