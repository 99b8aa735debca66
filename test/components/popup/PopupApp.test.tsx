// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { PopupApp } from '@/components/popup/PopupApp';
import { setLanguagePreference } from '@/lib/extension/language-preference';
import { DEFAULT_USER_SETTINGS, mergeSettings } from '@/lib/core/schemas/settings';
import { DISCLAIMER, FIXTURE_NOW } from '../../fixtures/snapshot';
import { trackUserGestures } from '../options/helpers';
import { fakeApi, pageLink, readyResult, testQueryClient, type FakeApiOptions } from './helpers';

beforeEach(() => fakeBrowser.reset());
afterEach(() => cleanup());

function renderPopup(options: FakeApiOptions = {}) {
  const api = fakeApi(options);
  const view = render(<PopupApp api={api} queryClient={testQueryClient()} now={FIXTURE_NOW} />);
  return { api, user: userEvent.setup(), ...view };
}

const [first, second, third] = [pageLink(1), pageLink(2, 'api'), pageLink(3)];
const links = [first, second, third];

describe('popup: states', () => {
  it('shows a loading state while the page is asked for its links', async () => {
    let answer: (value: { status: 'links'; links: [] }) => void = () => undefined;
    const { api } = renderPopup({ scan: () => new Promise((resolve) => (answer = resolve)) });
    expect(await screen.findByTestId('page-links-loading')).toHaveProperty(
      'textContent',
      expect.stringContaining('Looking for share links'),
    );
    await waitFor(() => expect(api.scanPage).toHaveBeenCalled());
    await act(async () => answer({ status: 'links', links: [] }));
    expect(await screen.findByTestId('page-empty')).toBeTruthy();
  });

  it('empty: says so, names the services it looks for and links to settings', async () => {
    const { api, user } = renderPopup({ scan: { status: 'links', links: [] } });
    const empty = await screen.findByTestId('page-empty');
    expect(empty.textContent).toContain('No share links on this page');
    expect(empty.textContent).toMatch(/Local dev server and Compliance Status/);
    await user.click(within(empty).getByRole('button', { name: 'Open Compliance Lens settings' }));
    expect(api.openOptionsPage).toHaveBeenCalledTimes(1);
  });

  it('not scannable (chrome://, stores): explains why, offers no scan', async () => {
    renderPopup({ tab: { tabId: 3, url: 'chrome://extensions/' }, scan: { status: 'not-scannable' } });
    const state = await screen.findByTestId('page-not-scannable');
    expect(state.textContent).toContain('This page can’t be read');
    expect(screen.queryByRole('button', { name: 'Scan this page' })).toBeNull();
  });

  it('no tab at all, and a tab the browser hides from us, each have their own state', async () => {
    renderPopup({ tab: null });
    expect((await screen.findByTestId('page-no-tab')).textContent).toContain('No page to look at');
    cleanup();
    renderPopup({ tab: { tabId: 3 }, scan: { status: 'no-access' } });
    expect((await screen.findByTestId('page-no-access')).textContent).toContain('can’t see this tab');
  });

  it('an error reading the page is shown with a retry', async () => {
    let fail = true;
    const { api, user } = renderPopup({
      scan: async () => {
        if (fail) throw new Error('tab closed');
        return { status: 'links', links: [first] };
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This page’s links could not be read');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findAllByTestId('page-link-row')).toHaveLength(1);
    expect(api.scanPage).toHaveBeenCalledTimes(2);
  });
});

describe('popup: the list', () => {
  it('shows cached snapshots at once (a peek, never a fetch) and offers to load the rest with their cost', async () => {
    const { api } = renderPopup({
      scan: { status: 'links', links },
      cached: { [first.token]: readyResult('Kobo Ledger Ltd', 76, 68) },
    });
    const rows = await screen.findAllByTestId('page-link-row');
    expect(rows).toHaveLength(3);
    expect(await screen.findByText('Kobo Ledger Ltd')).toBeTruthy();
    // Each figure named with its scale (issue #27 item 5).
    expect(rows[0]?.textContent).toContain('Readiness 76/100 · Good Standing');
    expect(rows[0]?.textContent).toContain('Fundraising risk: Low');
    expect(rows[0]?.textContent).toContain('Link expires next week');
    expect(rows[1]?.textContent).toContain(`localhost:8787 API link · ${links[1]?.token.slice(0, 6)}…`);
    expect(rows[1]?.textContent).toContain('API link · localhost');
    expect(rows[1]?.textContent).toContain('Not loaded yet');
    expect(screen.getByTestId('page-links-summary').textContent).toBe('3 share links on this page · 1 cached');
    expect(screen.getByTestId('load-all').textContent).toBe('Load 2 snapshots (counts 2 views)');
    // The disclaimer goes with the data shown.
    expect(within(screen.getByTestId('list-disclaimers')).getByTestId('disclaimer').textContent).toBe(DISCLAIMER);
    expect(api.peekSnapshot).toHaveBeenCalledTimes(3);
    expect(api.getSnapshot).not.toHaveBeenCalled();
    expect(api.refreshSnapshot).not.toHaveBeenCalled();
  });

  it('"Load N" fetches exactly the uncached links, then says everything is loaded', async () => {
    const { api, user } = renderPopup({
      scan: { status: 'links', links },
      cached: { [first.token]: readyResult('Kobo Ledger Ltd') },
      fetched: { [second.token]: readyResult('Sahel Pay SA', 35, 30), [third.token]: readyResult('Naira Vault Ltd', 92, 90) },
    });
    await user.click(await screen.findByTestId('load-all'));
    expect(await screen.findByText('Every snapshot on this page is loaded.')).toBeTruthy();
    expect(api.getSnapshot.mock.calls.map(([request]) => request.token).sort()).toEqual([second.token, third.token]);
    expect(screen.getByText('Sahel Pay SA')).toBeTruthy();
    expect(screen.getByText('Naira Vault Ltd')).toBeTruthy();
    expect(screen.queryByTestId('load-all')).toBeNull();
  });

  it('the button text is singular for one link', async () => {
    renderPopup({ scan: { status: 'links', links: [first] } });
    expect((await screen.findByTestId('load-all')).textContent).toBe('Load 1 snapshot (counts 1 view)');
  });

  it('a failed load shows the error on its row', async () => {
    const { user } = renderPopup({
      scan: { status: 'links', links: [first] },
      fetched: { [first.token]: { status: 'error', code: 'EXPIRED', message: 'Share link has expired' } },
    });
    await user.click(await screen.findByTestId('load-all'));
    const row = await screen.findByTestId('page-link-row');
    expect(row.getAttribute('data-state')).toBe('error');
    expect(row.textContent).toContain('Link expired');
  });

  it('a rejected message becomes a NETWORK error, not a crash', async () => {
    const { api, user } = renderPopup({ scan: { status: 'links', links: [first] } });
    api.getSnapshot.mockRejectedValueOnce(new Error('Could not establish connection'));
    await user.click(await screen.findByTestId('load-all'));
    expect((await screen.findByTestId('page-link-row')).textContent).toContain('Could not reach the service');
  });

  it('selecting a link shows the full card with Refresh; back returns focus to the row', async () => {
    const { api, user } = renderPopup({
      scan: { status: 'links', links },
      cached: { [second.token]: readyResult('Sahel Pay SA') },
      fetched: { [second.token]: readyResult('Sahel Pay SA') },
    });
    await screen.findByText('Sahel Pay SA');
    await user.click(screen.getAllByTestId('page-link-row')[1]!);
    const card = screen.getByTestId('snapshot-card');
    expect(within(card).getByTestId('company-name').textContent).toBe('Sahel Pay SA');
    expect(within(card).getByTestId('disclaimer').textContent).toBe(DISCLAIMER);
    expect(document.activeElement?.textContent).toContain('All links');
    await user.click(within(card).getByRole('button', { name: /^Refresh/ }));
    expect(api.refreshSnapshot).toHaveBeenCalledWith({ origin: second.origin, token: second.token });
    await user.click(screen.getByRole('button', { name: 'All links' }));
    expect(document.activeElement?.getAttribute('data-key')).toBe(second.canonicalKey);
  });

  it('selecting an uncached link offers to load it (one view) instead of fetching', async () => {
    const { api, user } = renderPopup({
      scan: { status: 'links', links: [first] },
      fetched: { [first.token]: readyResult('Kobo Ledger Ltd') },
    });
    await user.click(await screen.findByTestId('page-link-row'));
    expect(screen.getByText('Not loaded yet')).toBeTruthy();
    expect(api.getSnapshot).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Load snapshot (counts 1 view)' }));
    expect((await screen.findByTestId('company-name')).textContent).toBe('Kobo Ledger Ltd');
    expect(api.getSnapshot).toHaveBeenCalledTimes(1);
  });

  it('is operable by keyboard alone: tab to a row, Enter opens it, tabs switch with arrow keys', async () => {
    const { user } = renderPopup({
      scan: { status: 'links', links: [first] },
      cached: { [first.token]: readyResult('Kobo Ledger Ltd') },
    });
    await screen.findByText('Kobo Ledger Ltd');
    const pageTab = screen.getByRole('tab', { name: 'On this page' });
    pageTab.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Preview my link' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Preview my link' }));
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(pageTab);
    await user.tab();
    // The first focusable in the panel is the row (everything is cached: no load button).
    expect(document.activeElement?.getAttribute('data-testid')).toBe('page-link-row');
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('snapshot-card')).toBeTruthy();
  });

  it('updates when the content script reports a change for this tab (and ignores other tabs)', async () => {
    let current = [first];
    const { api } = renderPopup({ scan: async () => ({ status: 'links', links: current }) });
    expect(await screen.findAllByTestId('page-link-row')).toHaveLength(1);
    current = [first, second];
    await act(async () => api.emitPageLinksChanged(99));
    expect(screen.getAllByTestId('page-link-row')).toHaveLength(1);
    await act(async () => api.emitPageLinksChanged(7));
    await waitFor(() => expect(screen.getAllByTestId('page-link-row')).toHaveLength(2));
  });

  it('French: plurals, labels and relative dates', async () => {
    await setLanguagePreference('fr');
    renderPopup({ scan: { status: 'links', links }, cached: { [first.token]: readyResult('Kobo Ledger Ltd', 76, 68) } });
    expect((await screen.findByTestId('load-all')).textContent).toBe('Charger 2 instantanés (compte 2 vues)');
    expect(screen.getByTestId('page-links-summary').textContent).toBe('3 liens de partage sur cette page · 1 en cache');
    const row = (await screen.findByText('Kobo Ledger Ltd')).closest('button');
    expect(row?.textContent).toContain('Préparation 76/100 · En règle');
    expect(row?.textContent).toContain('Risque de levée de fonds : Faible');
    expect(row?.textContent).toContain('Expiration du lien la semaine prochaine');
    expect(document.documentElement.lang).toBe('fr');
  });
});

describe('popup: scan and enable', () => {
  const notRunning: FakeApiOptions = {
    tab: { tabId: 5, url: 'https://crm.example.com/pipeline' },
    scan: { status: 'not-running', host: 'crm.example.com' },
  };

  it('"Scan this page" injects the annotator into the tab and lists what it finds', async () => {
    let scanned = false;
    const { api, user } = renderPopup({
      ...notRunning,
      scan: async () => (scanned ? { status: 'links', links: [first] } : { status: 'not-running', host: 'crm.example.com' }),
    });
    const state = await screen.findByTestId('page-not-running');
    expect(state.textContent).toContain('Scan this page once, or enable crm.example.com');
    api.injectAnnotator.mockImplementation(async () => {
      scanned = true;
    });
    await user.click(within(state).getByRole('button', { name: 'Scan this page' }));
    expect(api.injectAnnotator).toHaveBeenCalledWith(5);
    expect(await screen.findAllByTestId('page-link-row')).toHaveLength(1);
    expect(api.requestSiteAccess).not.toHaveBeenCalled();
  });

  it('"Enable on <host>" asks for access inside the click, saves the site and scans now', async () => {
    const gestures = trackUserGestures();
    const inGesture: boolean[] = [];
    const { api, user } = renderPopup(notRunning);
    api.requestSiteAccess.mockImplementation((host: string) => {
      inGesture.push(gestures.active);
      return Promise.resolve(host === 'crm.example.com');
    });
    await user.click(await screen.findByRole('button', { name: 'Enable on crm.example.com' }));
    expect(await screen.findByText('Enabled on crm.example.com. Links there are now listed.')).toBeTruthy();
    expect(inGesture).toEqual([true]);
    expect(api.enableSite).toHaveBeenCalledWith('crm.example.com');
    expect(api.injectAnnotator).toHaveBeenCalledWith(5);
  });

  it('a denied permission saves nothing and says so', async () => {
    const { api, user } = renderPopup(notRunning);
    api.requestSiteAccess.mockResolvedValue(false);
    await user.click(await screen.findByRole('button', { name: 'Enable on crm.example.com' }));
    expect(await screen.findByText('Access to crm.example.com was not allowed, so it was not enabled.')).toBeTruthy();
    expect(api.enableSite).not.toHaveBeenCalled();
    expect(api.injectAnnotator).not.toHaveBeenCalled();
  });

  it('when an administrator locks the sites, only the one-off scan is offered', async () => {
    const settings = mergeSettings(DEFAULT_USER_SETTINGS, { enabledSites: ['crm.corp.example'] });
    renderPopup({ ...notRunning, settings });
    const state = await screen.findByTestId('page-not-running');
    await screen.findByText('Your administrator decides which sites Compliance Lens reads.');
    expect(within(state).queryByRole('button', { name: /Enable on/ })).toBeNull();
    expect(within(state).getByRole('button', { name: 'Scan this page' })).toBeTruthy();
  });
});
