import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { createBrowserOptionsApi, type OptionsApi } from '@/components/options/api';
import { OptionsApp } from '@/components/options/OptionsApp';

/**
 * Tracks whether code runs inside a user gesture: true only while a click or submit event is being
 * dispatched. Browsers drop a permission request made after an `await`; this lets tests catch that.
 */
export function trackUserGestures() {
  let depth = 0;
  const enter = () => void depth++;
  const leave = () => void depth--;
  for (const type of ['click', 'submit', 'keydown'] as const) {
    window.addEventListener(type, enter, true);
    window.addEventListener(type, leave, false);
  }
  return {
    get active() {
      return depth > 0;
    },
  };
}

export interface FakeBrowserParts {
  permissions: {
    contains: ReturnType<typeof vi.fn<(request: { origins?: string[] }) => Promise<boolean>>>;
    request: ReturnType<typeof vi.fn<(request: { origins?: string[] }) => Promise<boolean>>>;
    remove: ReturnType<typeof vi.fn<(request: { origins?: string[] }) => Promise<boolean>>>;
  };
  background: {
    listCached: ReturnType<typeof vi.fn<() => Promise<never[]>>>;
    clearCache: ReturnType<typeof vi.fn<(request?: { area?: 'session' | 'local' | 'all' }) => Promise<{ cleared: number }>>>;
  };
  /** Patterns the fake browser has granted. */
  granted: Set<string>;
  /** Whether each permission request happened inside a user gesture. */
  requestsInGesture: boolean[];
}

export function fakeBrowserParts(options: { grant?: boolean; cleared?: number } = {}): FakeBrowserParts {
  const gestures = trackUserGestures();
  const granted = new Set<string>(['http://localhost:8787/*', 'http://127.0.0.1:8787/*']);
  const requestsInGesture: boolean[] = [];
  const all = (origins: string[] | undefined) => (origins ?? []).every((origin) => granted.has(origin));
  return {
    granted,
    requestsInGesture,
    permissions: {
      contains: vi.fn(async ({ origins }) => all(origins)),
      request: vi.fn(({ origins }) => {
        requestsInGesture.push(gestures.active);
        if (options.grant ?? true) for (const origin of origins ?? []) granted.add(origin);
        return Promise.resolve(options.grant ?? true);
      }),
      remove: vi.fn(async ({ origins }) => {
        for (const origin of origins ?? []) granted.delete(origin);
        return true;
      }),
    },
    background: {
      listCached: vi.fn(async () => []),
      clearCache: vi.fn(async () => ({ cleared: options.cleared ?? 0 })),
    },
  };
}

export function renderOptions(parts: FakeBrowserParts, overrides: Partial<OptionsApi> = {}) {
  const api: OptionsApi = {
    ...createBrowserOptionsApi({ permissions: parts.permissions, background: parts.background }),
    ...overrides,
  };
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return { api, ...render(<OptionsApp api={api} queryClient={queryClient} />) };
}
