// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { PopupApp } from '@/components/popup/PopupApp';
import { DEFAULT_USER_SETTINGS, mergeSettings } from '@/lib/core/schemas/settings';
import { FIXTURE_NOW, FIXTURE_TOKEN } from '../../fixtures/snapshot';
import { fakeApi, readyResult, testQueryClient, type FakeApiOptions } from './helpers';

beforeEach(() => fakeBrowser.reset());
afterEach(() => cleanup());

const LOCAL = 'http://localhost:8787';
const LOCAL_127 = 'http://127.0.0.1:8787';

async function openPreview(options: FakeApiOptions = {}) {
  const api = fakeApi({ fetched: { [FIXTURE_TOKEN]: readyResult('Kobo Ledger Ltd', 76, 68) }, ...options });
  render(<PopupApp api={api} queryClient={testQueryClient()} now={FIXTURE_NOW} />);
  const user = userEvent.setup();
  await user.click(await screen.findByRole('tab', { name: 'Preview my link' }));
  const field = screen.getByRole('textbox', { name: 'Share link or token' });
  // Settings (the services) are loaded once the recogniser knows them.
  await screen.findByTestId('preview-cost');
  return { api, user, field, submit: () => user.click(screen.getByRole('button', { name: 'Preview (counts 1 view)' })) };
}

describe('founder preview', () => {
  it('says a preview counts as a view, and fetches nothing while typing', async () => {
    const { api, user, field } = await openPreview();
    expect(screen.getByTestId('preview-cost').textContent).toBe(
      'A preview counts as one view on your link, exactly like an investor opening it.',
    );
    await user.type(field, `${LOCAL}/share/${FIXTURE_TOKEN}`);
    expect(api.getSnapshot).not.toHaveBeenCalled();
    expect(api.refreshSnapshot).not.toHaveBeenCalled();
  });

  it.each([
    ['an API URL', `${LOCAL}/api/v1/compliance-status/${FIXTURE_TOKEN}`, 'Recognised: API link on Local dev server.', LOCAL],
    // The local server's other name: the same service (issue #33 item 14), asked as the link was written.
    ['a share URL', `${LOCAL_127}/share/${FIXTURE_TOKEN}`, 'Recognised: Share page on Local dev server.', LOCAL_127],
    [
      'a Gmail-wrapped URL',
      `https://www.google.com/url?q=${encodeURIComponent(`${LOCAL}/share/${FIXTURE_TOKEN}`)}&sa=D`,
      'Recognised: Share page on Local dev server.',
      LOCAL,
    ],
    [
      'a Safe Links URL',
      `https://nam12.safelinks.protection.outlook.com/?url=${encodeURIComponent(`${LOCAL}/share/${FIXTURE_TOKEN}`)}&data=05%7C02&reserved=0`,
      'Recognised: Share page on Local dev server.',
      LOCAL,
    ],
  ])('previews %s: the investor’s card, from one fetch on submit', async (_name, input, detected, origin) => {
    const { api, user, field, submit } = await openPreview();
    await user.click(field);
    await user.paste(input);
    expect(screen.getByTestId('preview-detected').textContent).toBe(detected);
    expect(api.getSnapshot).not.toHaveBeenCalled();
    await submit();
    const result = await screen.findByTestId('preview-result');
    expect(within(result).getByTestId('company-name').textContent).toBe('Kobo Ledger Ltd');
    expect(within(result).getByTestId('disclaimer')).toBeTruthy();
    expect(api.getSnapshot).toHaveBeenCalledTimes(1);
    expect(api.getSnapshot).toHaveBeenCalledWith({ origin, token: FIXTURE_TOKEN });
  });

  it('a bare token asks which configured service issued it', async () => {
    const { api, user, field, submit } = await openPreview();
    await user.click(field);
    await user.paste(FIXTURE_TOKEN);
    expect(screen.getByTestId('preview-detected').textContent).toBe('Recognised: a token. Choose its service below.');
    const picker = screen.getByRole('combobox', { name: 'Service that issued this token' });
    expect(
      within(picker)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Local dev server (http://localhost:8787)', 'Compliance Status (https://app.compliance-status.example)']);
    await user.selectOptions(picker, LOCAL);
    await submit();
    await screen.findByTestId('preview-result');
    expect(api.getSnapshot).toHaveBeenCalledWith({ origin: LOCAL, token: FIXTURE_TOKEN });
  });

  it('Enter in the field submits', async () => {
    const { api, user, field } = await openPreview();
    await user.click(field);
    await user.paste(`${LOCAL}/share/${FIXTURE_TOKEN}`);
    await user.keyboard('{Enter}');
    await screen.findByTestId('preview-result');
    expect(api.getSnapshot).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['', 'Paste a share link or a token first.'],
    [`https://evil.example/share/${FIXTURE_TOKEN}`, 'This link points to a service that is not in your settings.'],
    [`http://localhost.evil.example:8787/share/${FIXTURE_TOKEN}`, 'This link points to a service that is not in your settings.'],
    [`${LOCAL}/dashboard`, 'This link is on a known service but is not a share link'],
    ['hello world', 'This is neither a link nor a token.'],
  ])('refuses %j with a clear message and fetches nothing', async (input, message) => {
    const { api, user, field, submit } = await openPreview();
    if (input) {
      await user.click(field);
      await user.paste(input);
    }
    await submit();
    expect(screen.getByRole('alert').textContent).toContain(message);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field);
    expect(api.getSnapshot).not.toHaveBeenCalled();
  });

  it('shows the service’s error (expired link) in the investor’s terms', async () => {
    const { user, field, submit } = await openPreview({
      fetched: {
        [FIXTURE_TOKEN]: {
          status: 'error',
          code: 'EXPIRED',
          message: 'Share link has expired',
          expiredAt: '2026-11-20T08:00:00.000Z',
        },
      },
    });
    await user.click(field);
    await user.paste(`${LOCAL}/share/${FIXTURE_TOKEN}`);
    await submit();
    const result = await screen.findByTestId('preview-result');
    expect(within(result).getByText('Link expired')).toBeTruthy();
    expect(within(result).getByTestId('error-message').textContent).toMatch(/expired on (20 Nov|Nov 20,) 2026/);
  });

  it('Refresh on the previewed card is an explicit refetch', async () => {
    const { api, user, field, submit } = await openPreview();
    await user.click(field);
    await user.paste(`${LOCAL}/share/${FIXTURE_TOKEN}`);
    await submit();
    await user.click(await screen.findByRole('button', { name: /^Refresh/ }));
    expect(api.refreshSnapshot).toHaveBeenCalledWith({ origin: LOCAL, token: FIXTURE_TOKEN });
  });

  it('without any service, says to add one', async () => {
    const settings = { ...mergeSettings(DEFAULT_USER_SETTINGS, {}), services: [] };
    const { api, user, field, submit } = await openPreview({ settings });
    await user.click(field);
    await user.paste(FIXTURE_TOKEN);
    await submit();
    expect(screen.getByRole('alert').textContent).toBe('No services are configured. Add one in Settings first.');
    expect(api.getSnapshot).not.toHaveBeenCalled();
  });
});
