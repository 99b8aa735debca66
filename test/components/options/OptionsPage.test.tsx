// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createBrowserOptionsApi } from '@/components/options/api';
import { createSettingsStore } from '@/lib/extension/settings';
import { fakeBrowserParts, renderOptions } from './helpers';

beforeEach(() => fakeBrowser.reset());
afterEach(() => cleanup());

const storedServices = async () => (await createSettingsStore().getUserSettings()).services;

async function servicesRegion() {
  return screen.findByRole('region', { name: 'Compliance services' });
}

describe('options page: states', () => {
  it('shows a loading state, then the settings', async () => {
    const parts = fakeBrowserParts();
    const real = createBrowserOptionsApi({ permissions: parts.permissions, background: parts.background });
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    renderOptions(parts, { loadSettings: () => gate.then(() => real.loadSettings()) });
    expect((await screen.findByRole('status', { name: '' })).textContent).toContain('Loading settings…');
    release();
    const services = await servicesRegion();
    expect(within(services).getByText('Local dev server')).toBeTruthy();
    expect(within(services).getByText('https://app.compliance-status.example')).toBeTruthy();
  });

  it('a new install: the settings show at once while the administrator policy is still being read, then again once it is (issue #27 item 10)', async () => {
    const parts = fakeBrowserParts();
    const real = createBrowserOptionsApi({ permissions: parts.permissions, background: parts.background });
    let settle = () => {};
    const policy = new Promise<void>((resolve) => (settle = resolve));
    let loads = 0;
    renderOptions(parts, {
      loadSettings: async () => ({ ...(await real.loadSettings()), settled: loads++ > 0 }),
      policySettled: () => policy,
    });
    const services = await servicesRegion();
    expect(within(services).getByText('Local dev server')).toBeTruthy();
    expect(screen.getByTestId('policy-pending').textContent).toBe('Checking for settings set by your administrator…');
    settle();
    await waitFor(() => expect(screen.queryByTestId('policy-pending')).toBeNull());
    expect(loads).toBe(2);
  });

  it('shows an error state with a working retry', async () => {
    const parts = fakeBrowserParts();
    const real = createBrowserOptionsApi({ permissions: parts.permissions, background: parts.background });
    let failures = 1;
    renderOptions(parts, {
      loadSettings: async () => {
        if (failures-- > 0) throw new Error('storage is unavailable');
        return real.loadSettings();
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your settings could not be loaded');
    expect(alert.textContent).toContain('storage is unavailable');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await servicesRegion()).toBeTruthy();
  });

  it('shows an empty state when no service is configured', async () => {
    await createSettingsStore().updateUserSettings({ services: [] });
    renderOptions(fakeBrowserParts());
    const services = await servicesRegion();
    expect(within(services).getByText('No services yet')).toBeTruthy();
    expect(screen.getByText('No extra sites yet.')).toBeTruthy();
  });

  it('states what is sent, where, and what is stored', async () => {
    renderOptions(fakeBrowserParts());
    const privacy = await screen.findByRole('region', { name: 'What Compliance Lens sends and stores' });
    expect(privacy.textContent).toContain('only the token of a share link, and only to the service origins');
    expect(privacy.textContent).toContain('counts as a view for the founder');
    expect(privacy.textContent).toContain('session storage');
    expect(privacy.textContent).toContain('No analytics');
  });
});

describe('options page: services', () => {
  it('names the field in each validation error, marks it invalid and focuses the first', async () => {
    const user = userEvent.setup();
    const parts = fakeBrowserParts();
    renderOptions(parts);
    const services = await servicesRegion();
    await user.click(within(services).getByRole('button', { name: 'Add a service' }));
    const name = within(services).getByRole('textbox', { name: 'Name' });
    expect(document.activeElement).toBe(name);
    await user.type(name, 'Comply');
    await user.type(within(services).getByRole('textbox', { name: 'Origin' }), 'https://comply.example/share');
    const apiPath = within(services).getByRole('textbox', { name: 'API path template' });
    await user.clear(apiPath);
    await user.type(apiPath, '/api/v1/status');
    await user.click(within(services).getByRole('button', { name: 'Add service' }));

    const origin = within(services).getByRole('textbox', { name: 'Origin' });
    expect(origin.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(origin);
    expect(within(services).getByText(/^Origin must be an http or https origin with no path/)).toBeTruthy();
    expect(within(services).getByText('API path template must start with / and contain {token}.')).toBeTruthy();
    // The error is read with the field.
    const described = origin.getAttribute('aria-describedby')?.split(' ') ?? [];
    expect(described.map((id) => document.getElementById(id)?.textContent).join(' ')).toContain('Origin must be');
    expect(parts.permissions.request).not.toHaveBeenCalled();
    expect(await storedServices()).toHaveLength(2);
  });

  it('adds a valid service after asking for access inside the click', async () => {
    const user = userEvent.setup();
    const parts = fakeBrowserParts({ grant: true });
    renderOptions(parts);
    const services = await servicesRegion();
    await user.click(within(services).getByRole('button', { name: 'Add a service' }));
    await user.type(within(services).getByRole('textbox', { name: 'Name' }), 'Comply');
    // A pasted trailing slash is forgiven.
    await user.type(within(services).getByRole('textbox', { name: 'Origin' }), 'https://comply.example/');
    await user.click(within(services).getByRole('button', { name: 'Add service' }));

    expect(await within(services).findByText('Added Comply.')).toBeTruthy();
    expect(parts.permissions.request).toHaveBeenCalledWith({ origins: ['https://comply.example/*'] });
    expect(parts.requestsInGesture).toEqual([true]);
    expect((await storedServices()).map((service) => service.origin)).toContain('https://comply.example');
    const row = within(services)
      .getAllByTestId('service-row')
      .find((element) => element.textContent?.includes('Comply'));
    expect(row && within(row).getByText('Access allowed')).toBeTruthy();
  });

  it('does not save a service whose access was denied, and says why', async () => {
    const user = userEvent.setup();
    const parts = fakeBrowserParts({ grant: false });
    renderOptions(parts);
    const services = await servicesRegion();
    await user.click(within(services).getByRole('button', { name: 'Add a service' }));
    await user.type(within(services).getByRole('textbox', { name: 'Name' }), 'Comply');
    await user.type(within(services).getByRole('textbox', { name: 'Origin' }), 'https://comply.example');
    await user.keyboard('{Enter}');

    const alert = await within(services).findByText(/^Access to https:\/\/comply.example was not allowed/);
    expect(alert.textContent).toContain('the service was not saved');
    expect(parts.requestsInGesture).toEqual([true]);
    expect((await storedServices()).map((service) => service.origin)).not.toContain('https://comply.example');
    // The form stays open with what was typed, ready for another try.
    expect(within(services).getByRole('textbox', { name: 'Origin' })).toHaveProperty('value', 'https://comply.example');
  });

  it('refuses an origin another service already uses', async () => {
    const user = userEvent.setup();
    renderOptions(fakeBrowserParts());
    const services = await servicesRegion();
    await user.click(within(services).getByRole('button', { name: 'Add a service' }));
    await user.type(within(services).getByRole('textbox', { name: 'Name' }), 'Again');
    await user.type(within(services).getByRole('textbox', { name: 'Origin' }), 'http://localhost:8787');
    await user.click(within(services).getByRole('button', { name: 'Add service' }));
    expect(within(services).getByText('Origin is already used by “Local dev server”.')).toBeTruthy();
  });

  it('edits a service without a new prompt when the origin is unchanged', async () => {
    const user = userEvent.setup();
    const parts = fakeBrowserParts();
    renderOptions(parts);
    const services = await servicesRegion();
    await user.click(within(services).getByRole('button', { name: 'Edit Local dev server' }));
    const name = within(services).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Laptop server');
    await user.click(within(services).getByRole('button', { name: 'Save changes' }));
    expect(await within(services).findByText('Saved Laptop server.')).toBeTruthy();
    expect(parts.permissions.request).not.toHaveBeenCalled();
    expect((await storedServices())[0]).toMatchObject({ id: 'local-localhost', name: 'Laptop server' });
  });

  it('removes a service and gives its access back', async () => {
    const user = userEvent.setup();
    const parts = fakeBrowserParts();
    parts.granted.add('https://app.compliance-status.example/*');
    renderOptions(parts);
    const services = await servicesRegion();
    await user.click(within(services).getByRole('button', { name: 'Remove Compliance Status' }));
    expect(await within(services).findByText('Removed Compliance Status.')).toBeTruthy();
    expect((await storedServices()).map((service) => service.id)).toEqual(['local-localhost']);
    await waitFor(() =>
      expect(parts.permissions.remove).toHaveBeenCalledWith({ origins: ['https://app.compliance-status.example/*'] }),
    );
  });

  it('offers to allow access for a configured service that lacks it', async () => {
    const user = userEvent.setup();
    const parts = fakeBrowserParts({ grant: true });
    renderOptions(parts);
    const services = await servicesRegion();
    await user.click(await within(services).findByRole('button', { name: 'Allow access to Compliance Status' }));
    expect(parts.requestsInGesture).toEqual([true]);
    await waitFor(() => expect(within(services).getAllByText('Access allowed')).toHaveLength(2));
  });
});

describe('options page: administrator policy', () => {
  it('shows locked settings as disabled, "Set by your administrator", and hides list edits', async () => {
    await fakeBrowser.storage.managed.set({
      hoverDelayMs: 700,
      persistCache: false,
      allowUserServices: false,
      services: [{ id: 'corp', name: 'Corp Compliance', origin: 'https://compliance.corp.example' }],
    });
    renderOptions(fakeBrowserParts());
    const services = await servicesRegion();
    expect(within(services).getByText('Corp Compliance')).toBeTruthy();
    expect(within(services).queryByText('Local dev server')).toBeNull();
    expect(within(services).queryByRole('button', { name: /^Edit / })).toBeNull();
    expect(within(services).getByRole('button', { name: /Add a service/ })).toHaveProperty('disabled', true);

    const delay = screen.getByRole('combobox', { name: 'Hover delay' });
    expect(delay).toHaveProperty('disabled', true);
    expect(delay).toHaveProperty('value', '700');
    const notes = (delay.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(notes).toContain('Set by your administrator');

    expect(screen.getByRole('checkbox', { name: /Keep cached snapshots/ })).toHaveProperty('disabled', true);
    // Not locked: still editable.
    expect(screen.getByRole('combobox', { name: 'Keep snapshots for' })).toHaveProperty('disabled', false);
  });
});

describe('options page: fetching, cache, sites', () => {
  it('saves the fetch mode, hover delay and a valid request budget; rejects one out of range', async () => {
    const user = userEvent.setup();
    renderOptions(fakeBrowserParts());
    await servicesRegion();
    await user.click(screen.getByRole('radio', { name: /Also prefetch links visible/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Hover delay' }), '700');
    const budget = screen.getByRole('spinbutton', { name: 'Requests per minute, per service' });
    expect(screen.getByText(/60 requests per minute per IP address, and everyone in your office shares/)).toBeTruthy();
    await user.clear(budget);
    await user.type(budget, '80{Enter}');
    expect(await screen.findByText('Requests per minute must be a whole number from 1 to 50.')).toBeTruthy();
    await user.clear(budget);
    await user.type(budget, '12{Enter}');
    await waitFor(async () =>
      expect(await createSettingsStore().getUserSettings()).toMatchObject({
        fetchMode: 'prefetch-visible',
        hoverDelayMs: 700,
        requestBudgetPerMinute: 12,
      }),
    );
    expect(screen.queryByText('Requests per minute must be a whole number from 1 to 50.')).toBeNull();
  });

  it('clears the cache and says how many entries went', async () => {
    const user = userEvent.setup();
    const parts = fakeBrowserParts({ cleared: 3 });
    renderOptions(parts);
    await servicesRegion();
    await user.click(screen.getByRole('button', { name: 'Clear cache' }));
    expect(await screen.findByText('Cleared 3 cached entries.')).toBeTruthy();
    expect(parts.background.clearCache).toHaveBeenCalledWith({ area: 'all' });
  });

  it('says so when the cache cannot be cleared', async () => {
    const user = userEvent.setup();
    const parts = fakeBrowserParts();
    parts.background.clearCache.mockRejectedValueOnce(new Error('the background is not answering'));
    renderOptions(parts);
    await servicesRegion();
    await user.click(screen.getByRole('button', { name: 'Clear cache' }));
    expect(await screen.findByText('The cache could not be cleared: the background is not answering')).toBeTruthy();
  });

  it('adds an extra site after validation and a permission request', async () => {
    const user = userEvent.setup();
    const parts = fakeBrowserParts();
    renderOptions(parts);
    await servicesRegion();
    const host = screen.getByRole('textbox', { name: 'Host name' });
    await user.type(host, 'https://crm.example.com/deals{Enter}');
    expect(screen.getByText(/^Host name must look like crm.example.com/)).toBeTruthy();
    expect(host.getAttribute('aria-invalid')).toBe('true');
    await user.clear(host);
    await user.type(host, 'CRM.example.com');
    await user.click(screen.getByRole('button', { name: 'Add site' }));
    expect(await screen.findByText('Added crm.example.com.')).toBeTruthy();
    expect(parts.permissions.request).toHaveBeenCalledWith({ origins: ['*://crm.example.com/*'] });
    expect(parts.requestsInGesture).toEqual([true]);
    expect((await createSettingsStore().getUserSettings()).enabledSites).toEqual(['crm.example.com']);
    await user.click(screen.getByRole('button', { name: 'Remove crm.example.com' }));
    expect(await screen.findByText('Removed crm.example.com.')).toBeTruthy();
  });
});

describe('options page: language and keyboard', () => {
  it('switching the language changes the strings and is stored', async () => {
    const user = userEvent.setup();
    renderOptions(fakeBrowserParts({ cleared: 1 }));
    await servicesRegion();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Display language' }), 'fr');
    expect(await screen.findByRole('heading', { level: 1, name: 'Paramètres de Compliance Lens' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('fr');
    expect(screen.getByRole('region', { name: 'Services de conformité' })).toBeTruthy();
    expect(await fakeBrowser.storage.local.get('language')).toEqual({ language: 'fr' });
    await user.click(screen.getByRole('button', { name: 'Vider le cache' }));
    expect(await screen.findByText('1 entrée supprimée du cache.')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Conserver les instantanés pendant' }).textContent).toContain('1 heure');
  });

  it('adds a service by keyboard alone; Escape cancels and returns focus', async () => {
    const user = userEvent.setup();
    const parts = fakeBrowserParts();
    renderOptions(parts);
    const services = await servicesRegion();
    const addButton = within(services).getByRole('button', { name: 'Add a service' });
    addButton.focus();
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(within(services).getByRole('textbox', { name: 'Name' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(document.activeElement?.textContent).toContain('Add a service'));

    await user.keyboard('{Enter}');
    await user.keyboard('Comply');
    await user.tab();
    await user.keyboard('https://comply.example{Enter}');
    expect(await within(services).findByText('Added Comply.')).toBeTruthy();
    expect(parts.requestsInGesture).toEqual([true]);
  });
});
