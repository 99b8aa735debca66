import { vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { LOCAL_SERVICES } from '@/lib/core/services';
import { PRODUCTION_SERVICE } from '@/lib/core/services';
import {
  createSnapshotService,
  type FetchLike,
  type SnapshotService,
  type SnapshotServiceDeps,
  type SnapshotServiceSettings,
} from '@/lib/background/snapshot-service';
import { FIXTURE_NOW, buildSuccessEnvelope } from '@/test/fixtures/snapshot';

export const ORIGIN = 'http://localhost:8787';

export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
}

export function okResponse(overrides: Parameters<typeof buildSuccessEnvelope>[0] = {}): Response {
  return jsonResponse(buildSuccessEnvelope(overrides));
}

/**
 * A manual clock: `sleep` resolves only when `advance` moves time past its deadline, so tests can see
 * a request waiting in the budget queue.
 */
export class ManualClock {
  private sleepers: { until: number; resolve: () => void }[] = [];
  constructor(public time = FIXTURE_NOW) {}

  now = (): number => this.time;

  sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      this.sleepers.push({ until: this.time + ms, resolve });
    });

  get waiting(): number {
    return this.sleepers.length;
  }

  async advance(ms: number): Promise<void> {
    this.time += ms;
    const due = this.sleepers.filter((sleeper) => sleeper.until <= this.time);
    this.sleepers = this.sleepers.filter((sleeper) => sleeper.until > this.time);
    due.forEach((sleeper) => sleeper.resolve());
    await flush();
  }
}

/** Lets pending promise chains (fake storage, fetch mocks) settle. */
export async function flush(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export function defaultServiceSettings(): SnapshotServiceSettings {
  return {
    services: [...LOCAL_SERVICES, PRODUCTION_SERVICE],
    cacheTtlMinutes: 60,
    requestBudgetPerMinute: 30,
    persistCache: false,
  };
}

export interface Harness {
  service: SnapshotService;
  fetch: ReturnType<typeof vi.fn<FetchLike>>;
  clock: ManualClock;
  settings: SnapshotServiceSettings;
  /** A new service over the same storage and clock: what a service-worker restart looks like. */
  restart(): SnapshotService;
}

export function createHarness(
  respond: FetchLike = async () => okResponse(),
  options: Partial<SnapshotServiceDeps> & { clock?: ManualClock; settings?: Partial<SnapshotServiceSettings> } = {},
): Harness {
  const { clock = new ManualClock(), settings: settingsOverrides, ...deps } = options;
  const settings = { ...defaultServiceSettings(), ...settingsOverrides };
  const fetch = vi.fn<FetchLike>(respond);
  const build = () =>
    createSnapshotService({
      fetch,
      getSettings: async () => settings,
      hasHostPermission: async () => true,
      sessionArea: fakeBrowser.storage.session,
      localArea: fakeBrowser.storage.local,
      now: clock.now,
      sleep: clock.sleep,
      ...deps,
    });
  return { service: build(), fetch, clock, settings, restart: build };
}
