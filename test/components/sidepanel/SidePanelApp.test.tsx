// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { SidePanelApp } from '@/components/sidepanel/SidePanelApp';
import { setLanguagePreference } from '@/lib/extension/language-preference';
import { DISCLAIMER, FIXTURE_NOW } from '../../fixtures/snapshot';
import { fakeApi, pageLink, readyResult, testQueryClient, type FakeApiOptions } from '../popup/helpers';

beforeEach(() => fakeBrowser.reset());
afterEach(() => cleanup());

const [kobo, abuja, zed, unloaded] = [pageLink(1), pageLink(2, 'api'), pageLink(3), pageLink(4)];
const DAY = 24 * 3600_000;
/** The row of a link not loaded, named by its service and its token's start (issue #33 item 12). */
const UNLOADED = `localhost:8787 share link · ${unloaded.token.slice(0, 6)}…`;
const cached = {
  [kobo.token]: {
    ...readyResult('Kobo Ledger Ltd', 76, 68, 5 * DAY),
    signature: { state: 'verified' as const, kid: 'kid-1', signedAt: FIXTURE_NOW },
  },
  [abuja.token]: {
    ...readyResult('abuja Remit Ltd', 35, 30, 2 * DAY),
    signature: { state: 'invalid' as const, reason: 'digest-mismatch' as const, message: 'the body is not the one signed' },
  },
  [zed.token]: readyResult('=HYPERLINK("http://evil.example","Zed")', 92, 90, 6 * DAY),
};

function renderPanel(options: FakeApiOptions = {}) {
  const api = fakeApi({ scan: { status: 'links', links: [kobo, abuja, zed, unloaded] }, cached, ...options });
  const saveFile = vi.fn<(fileName: string, text: string) => void>();
  render(<SidePanelApp api={api} queryClient={testQueryClient()} now={FIXTURE_NOW} saveFile={saveFile} />);
  return { api, saveFile, user: userEvent.setup() };
}

const companies = () => screen.getAllByTestId('row-company').map((cell) => cell.textContent);
const header = (name: RegExp) => screen.getByRole('columnheader', { name });

describe('side panel', () => {
  it('shows the links as a table (page order first), the disclaimer with the data, and the load button with its cost', async () => {
    renderPanel();
    await screen.findByText('Kobo Ledger Ltd');
    expect(screen.getByTestId('panel-page').textContent).toContain('Deals');
    expect(companies()).toEqual(['Kobo Ledger Ltd', 'abuja Remit Ltd', '=HYPERLINK("http://evil.example","Zed")', UNLOADED]);
    expect(screen.getByRole('table', { name: 'Share links on this page' })).toBeTruthy();
    expect(within(screen.getByTestId('list-disclaimers')).getByTestId('disclaimer').textContent).toBe(DISCLAIMER);
    expect(screen.getByTestId('load-all').textContent).toBe('Load 1 snapshot (counts 1 view)');
    for (const name of [/Company/, /Readiness/, /Fundraising risk/, /Expires/])
      expect(header(name).getAttribute('aria-sort')).toBe('none');
  });

  it.each([
    ['company', /Company/, ['=HYPERLINK("http://evil.example","Zed")', 'abuja Remit Ltd', 'Kobo Ledger Ltd', UNLOADED]],
    ['readiness', /Readiness/, ['abuja Remit Ltd', 'Kobo Ledger Ltd', '=HYPERLINK("http://evil.example","Zed")', UNLOADED]],
    ['band', /Fundraising risk/, ['abuja Remit Ltd', 'Kobo Ledger Ltd', '=HYPERLINK("http://evil.example","Zed")', UNLOADED]],
    ['expiry', /Expires/, ['abuja Remit Ltd', 'Kobo Ledger Ltd', '=HYPERLINK("http://evil.example","Zed")', UNLOADED]],
  ])('sorts by %s: ascending, then descending; rows without a value stay last', async (column, name, ascending) => {
    const { user } = renderPanel();
    await screen.findByText('Kobo Ledger Ltd');
    await user.click(screen.getByTestId(`sort-${column}`));
    expect(header(name).getAttribute('aria-sort')).toBe('ascending');
    expect(companies()).toEqual(ascending);
    await user.click(screen.getByTestId(`sort-${column}`));
    expect(header(name).getAttribute('aria-sort')).toBe('descending');
    expect(companies()).toEqual([...ascending.slice(0, 3).reverse(), UNLOADED]);
  });

  it('sorts with the keyboard (header buttons: Enter and Space)', async () => {
    const { user } = renderPanel();
    await screen.findByText('Kobo Ledger Ltd');
    screen.getByTestId('sort-readiness').focus();
    await user.keyboard('{Enter}');
    expect(header(/Readiness/).getAttribute('aria-sort')).toBe('ascending');
    await user.keyboard(' ');
    expect(header(/Readiness/).getAttribute('aria-sort')).toBe('descending');
    expect(header(/Company/).getAttribute('aria-sort')).toBe('none');
  });

  it('exports the loaded rows, in the order shown, as neutralised CSV without tokens; a row not loaded is not a blank line', async () => {
    const { user, saveFile } = renderPanel();
    await screen.findByText('Kobo Ledger Ltd');
    await user.click(screen.getByTestId('sort-readiness'));
    expect(screen.getByTestId('export-csv').textContent).toBe('Export CSV (3 rows)');
    await user.click(screen.getByTestId('export-csv'));
    expect(saveFile).toHaveBeenCalledTimes(1);
    const [fileName, csv] = saveFile.mock.calls[0]!;
    expect(fileName).toBe('compliance-snapshots-2026-11-22.csv');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toEqual([
      '"Company","Readiness score","Readiness label","Fundraising risk","Link expires (UTC)","Status","Service","Signature","Disclaimer"',
      `"abuja Remit Ltd",35,"Critical","High","2026-11-24T08:00:00.000Z","Loaded","http://localhost:8787","Signature invalid","${DISCLAIMER}"`,
      `"Kobo Ledger Ltd",76,"Good Standing","Low","2026-11-27T08:00:00.000Z","Loaded","http://localhost:8787","Signature verified","${DISCLAIMER}"`,
      // A snapshot cached before signatures were checked: no verdict, an empty cell.
      `"'=HYPERLINK(""http://evil.example"",""Zed"")",92,"Regulator Ready","Investor ready","2026-11-28T08:00:00.000Z","Loaded","http://localhost:8787",,"${DISCLAIMER}"`,
    ]);
    for (const link of [kobo, abuja, zed, unloaded]) expect(csv).not.toContain(link.token);
    expect(screen.getByText('Exported 3 rows.')).toBeTruthy();
  });

  it('before anything is loaded there is nothing to export: the button says so instead of writing blank rows (issue #27 item 6)', async () => {
    const { saveFile } = renderPanel({ cached: {} });
    await screen.findAllByTestId('panel-row');
    const button = screen.getByTestId<HTMLButtonElement>('export-csv');
    expect(button.disabled).toBe(true);
    expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Load snapshots to export them.',
    );
    expect(saveFile).not.toHaveBeenCalled();
  });

  it('exports in French with French headers and labels', async () => {
    await setLanguagePreference('fr');
    const { user, saveFile } = renderPanel({ scan: { status: 'links', links: [kobo] } });
    await screen.findByText('Kobo Ledger Ltd');
    await user.click(screen.getByRole('button', { name: 'Exporter en CSV (1 ligne)' }));
    const [fileName, csv] = saveFile.mock.calls[0]!;
    expect(fileName).toBe('instantanes-conformite-2026-11-22.csv');
    expect(csv.split('\r\n')[0]).toBe(
      '"Entreprise","Score de préparation","Niveau de préparation","Risque de levée de fonds","Expiration du lien (UTC)","État","Service émetteur","Signature","Avertissement"',
    );
    expect(csv.split('\r\n')[1]).toMatch(
      /^"Kobo Ledger Ltd",76,"En règle","Faible","2026-11-27T08:00:00\.000Z","Chargé",".*","Signature vérifiée",/,
    );
    expect(screen.getByText('1 ligne exportée.')).toBeTruthy();
  });

  it('follows the page: a pageLinksChanged for the tab adds rows; switching tabs lists the new tab', async () => {
    let links = [kobo];
    const { api } = renderPanel({ scan: async () => ({ status: 'links', links }) });
    await screen.findByText('Kobo Ledger Ltd');
    links = [kobo, abuja];
    await act(async () => api.emitPageLinksChanged(7));
    await waitFor(() => expect(companies()).toEqual(['Kobo Ledger Ltd', 'abuja Remit Ltd']));

    api.resolveTargetTab.mockResolvedValue({ tabId: 8, url: 'chrome://newtab/' });
    api.scanPage.mockResolvedValue({ status: 'not-scannable' });
    await act(async () => api.emitTabActivated());
    expect(await screen.findByTestId('page-not-scannable')).toBeTruthy();
  });

  it('a row’s details show the full card; Escape closes them', async () => {
    const { user } = renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Show details for Kobo Ledger Ltd' }));
    const detail = screen.getByTestId('link-detail');
    expect(within(detail).getByTestId('company-name').textContent).toBe('Kobo Ledger Ltd');
    expect(within(detail).getByTestId('disclaimer')).toBeTruthy();
    expect(document.activeElement).toBe(detail);
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('link-detail')).toBeNull();
  });

  it('"Load 1 snapshot" fetches only the uncached link', async () => {
    const { api, user } = renderPanel({ fetched: { [unloaded.token]: readyResult('Lagos Late Ltd') } });
    await user.click(await screen.findByTestId('load-all'));
    expect(await screen.findByText('Lagos Late Ltd')).toBeTruthy();
    expect(api.getSnapshot).toHaveBeenCalledTimes(1);
    expect(api.getSnapshot).toHaveBeenCalledWith({ origin: unloaded.origin, token: unloaded.token });
  });
});
