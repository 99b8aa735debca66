// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createWatchSettingsStore } from '@/lib/extension/watch-settings';
import { fakeBrowserParts, renderOptions } from './helpers';

beforeEach(() => fakeBrowser.reset());
afterEach(() => cleanup());

const region = () => screen.findByRole('region', { name: 'Watchlist' });

describe('options: watchlist', () => {
  it('offers daily (chosen), weekly and manual only; choosing one saves it', async () => {
    renderOptions(fakeBrowserParts());
    const section = await region();
    const radios = within(section).getAllByRole<HTMLInputElement>('radio');
    expect(radios.map((radio) => radio.value)).toEqual(['daily', 'weekly', 'manual']);
    await waitFor(() => expect(radios[0]?.checked).toBe(true));
    await userEvent.setup().click(within(section).getByRole('radio', { name: /Once a week/ }));
    await waitFor(async () => expect((await createWatchSettingsStore().get()).cadence).toBe('weekly'));
    expect(within(section).getByText(/each refresh counts as one view/i)).toBeTruthy();
  });

  it('notifications can be switched off', async () => {
    renderOptions(fakeBrowserParts());
    const section = await region();
    const box = within(section).getByRole<HTMLInputElement>('checkbox', { name: /Notify me/ });
    await waitFor(() => expect(box.checked).toBe(true));
    await userEvent.setup().click(box);
    await waitFor(async () => expect((await createWatchSettingsStore().get()).notifications).toBe(false));
  });

  it('an interval set in storage (as end-to-end tests do) is shown, not offered, and replaced by choosing another', async () => {
    await fakeBrowser.storage.local.set({ watchSettings: { cadence: 'interval', intervalSeconds: 30, notifications: true } });
    renderOptions(fakeBrowserParts());
    const section = await region();
    const interval = await within(section).findByRole<HTMLInputElement>('radio', { name: /Every 30 seconds/ });
    expect(interval.checked).toBe(true);
    expect(interval.disabled).toBe(true);
    await userEvent.setup().click(within(section).getByRole('radio', { name: /Once a day/ }));
    await waitFor(async () => expect((await createWatchSettingsStore().get()).cadence).toBe('daily'));
  });
});
