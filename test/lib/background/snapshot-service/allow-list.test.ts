import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { buildSnapshotUrl } from '@/lib/background/snapshot-service';
import { LOCAL_SERVICES } from '@/lib/core/services';
import { FIXTURE_TOKEN } from '@/test/fixtures/snapshot';
import { ORIGIN, createHarness } from './helpers';

beforeEach(() => {
  fakeBrowser.reset();
});

describe('only configured origins are ever contacted', () => {
  it.each([
    ['unconfigured origin', 'https://evil.example'],
    ['look-alike subdomain', 'http://localhost:8787.evil.com'],
    ['look-alike prefix', 'http://localhost.evil.com:8787'],
    ['other port', 'http://localhost:8788'],
    ['other scheme', 'https://localhost:8787'],
    ['trailing slash', 'http://localhost:8787/'],
    ['with a path', 'http://localhost:8787/api/v1/compliance-status'],
    ['full URL of another host', 'https://evil.example/http://localhost:8787'],
    ['userinfo trick', 'http://localhost:8787@evil.example'],
    ['upper case (not canonical)', 'HTTP://LOCALHOST:8787'],
    ['empty', ''],
  ])('%s → FORBIDDEN_ORIGIN, no fetch', async (_name, origin) => {
    const { service, fetch } = createHarness();
    for (const call of [service.getSnapshot, service.refresh, service.peek]) {
      expect(await call({ origin, token: FIXTURE_TOKEN })).toMatchObject({ status: 'error', code: 'FORBIDDEN_ORIGIN' });
    }
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each([
    ['too short', 'abc123'],
    ['path traversal', '../../api/founder'],
    ['encoded traversal', '%2e%2e%2fadmin'],
    ['query injection', `${FIXTURE_TOKEN}?x=1`],
    ['space', `${FIXTURE_TOKEN.slice(0, 20)} ${FIXTURE_TOKEN.slice(21)}`],
    ['too long', 'a'.repeat(129)],
    ['unicode', `${FIXTURE_TOKEN.slice(0, 30)}é`],
  ])('bad token shape (%s) → NOT_FOUND, no fetch', async (_name, token) => {
    const { service, fetch } = createHarness();
    expect(await service.getSnapshot({ origin: ORIGIN, token })).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
    expect(await service.refresh({ origin: ORIGIN, token })).toMatchObject({ code: 'NOT_FOUND' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('ignores a caller-provided URL: only origin and token are used', async () => {
    const { service, fetch } = createHarness();
    await service.getSnapshot({ origin: ORIGIN, token: FIXTURE_TOKEN, url: 'https://evil.example/steal' } as never);
    expect(fetch.mock.calls[0]![0]).toBe(`${ORIGIN}/api/v1/compliance-status/${FIXTURE_TOKEN}`);
  });

  it('a service removed from settings is refused at once, even with a cached snapshot', async () => {
    const { service, fetch, settings } = createHarness();
    await service.getSnapshot({ origin: ORIGIN, token: FIXTURE_TOKEN });
    settings.services = settings.services.filter((candidate) => candidate.origin !== ORIGIN);
    expect(await service.getSnapshot({ origin: ORIGIN, token: FIXTURE_TOKEN })).toMatchObject({ code: 'FORBIDDEN_ORIGIN' });
    expect(await service.peek({ origin: ORIGIN, token: FIXTURE_TOKEN })).toMatchObject({ code: 'FORBIDDEN_ORIGIN' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('a configured origin without host permission → FORBIDDEN_ORIGIN (permissionRequired), no fetch', async () => {
    const { service, fetch } = createHarness(undefined, {
      hasHostPermission: async (origin) => origin !== 'https://app.compliance-status.example',
    });
    const result = await service.getSnapshot({ origin: 'https://app.compliance-status.example', token: FIXTURE_TOKEN });
    expect(result).toMatchObject({ code: 'FORBIDDEN_ORIGIN', permissionRequired: true });
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('buildSnapshotUrl', () => {
  const local = LOCAL_SERVICES[0]!;

  it('encodes the token', () => {
    expect(buildSnapshotUrl(local, 'a/b?c')).toBe('http://localhost:8787/api/v1/compliance-status/a%2Fb%3Fc');
  });

  it('refuses a template that escapes the origin', () => {
    expect(() => buildSnapshotUrl({ ...local, apiPathTemplate: '//evil.example/{token}' }, FIXTURE_TOKEN)).toThrow();
  });
});
