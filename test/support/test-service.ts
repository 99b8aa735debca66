/**
 * Adds a test server to the extension's configured services the way the options page would: through
 * the versioned settings item in storage.local (`settings` + `settings$` meta, lib/extension/settings.ts).
 * Runs inside an extension context (the Chromium service worker, or the card page framed in Firefox):
 * pass it to `evaluate`, so it must stay self-contained (no imports, no helpers).
 */
export async function addServiceInExtension(service: {
  id: string;
  name: string;
  origin: string;
  aliases?: string[];
}): Promise<void> {
  const stored = await chrome.storage.local.get(['settings']);
  const current: Record<string, unknown> =
    typeof stored.settings === 'object' && stored.settings !== null ? { ...stored.settings } : {};
  const services: unknown[] = Array.isArray(current.services) ? current.services : [];
  current.services = [
    ...services,
    { ...service, apiPathTemplate: '/api/v1/compliance-status/{token}', sharePathTemplates: ['/share/{token}'] },
  ];
  await chrome.storage.local.set({ settings: current, settings$: { v: 2 } });
}
