import { describe, expect, it, vi } from 'vitest';
import { buildDigest, createNotifier, NOTIFICATION_PREFIX, onNotificationClicked } from '@/lib/background/watchlist/notify';
import { appTranslator } from '@/lib/core/i18n';
import type { WatchChange } from '@/lib/core/watchlist/types';
import { FIXTURE_NOW } from '@/test/fixtures/snapshot';
import { buildWatch } from '@/test/fixtures/watchlist';

const en = appTranslator('en', 'en-GB');
const fr = appTranslator('fr', 'fr-FR');
const up: WatchChange = { kind: 'readiness', from: 68, to: 80, delta: 12 };
const label: WatchChange = { kind: 'label', from: 'In Progress', to: 'Good Standing' };
const ended: WatchChange = { kind: 'ended', code: 'NOT_FOUND' };

describe('digest', () => {
  it('one company: its name as the title, one line per change, at the company’s row when clicked', () => {
    const watch = buildWatch(1);
    expect(buildDigest(en, [{ watch, changes: [label, up] }], FIXTURE_NOW)).toEqual({
      id: NOTIFICATION_PREFIX + watch.id,
      title: 'Kobo Ledger Ltd',
      message: 'Readiness: In Progress → Good Standing\nReadiness score 68 → 80 (+12)',
    });
  });

  it('several companies: one notification, in the reader’s language, with the first change of each and a count of the rest', () => {
    const entries = [1, 2, 3, 4, 5].map((i) => ({
      watch: buildWatch(i, { company: `Company ${i}` }),
      changes: i === 1 ? [label, up] : [ended],
    }));
    const digest = buildDigest(fr, entries, FIXTURE_NOW);
    expect(digest?.id).toBe(`${NOTIFICATION_PREFIX}all`);
    expect(digest?.title).toBe('5 entreprises suivies ont changé');
    expect(digest?.message.split('\n')).toEqual([
      'Company 1 : Préparation : En cours → En règle',
      'Company 2 : Lien révoqué ou inconnu : suivi terminé',
      'Company 3 : Lien révoqué ou inconnu : suivi terminé',
      'Company 4 : Lien révoqué ou inconnu : suivi terminé',
      '… et 2 autres changements',
    ]);
  });

  it('hostile names (issue #26 item 8): no bidi or control character, and a title of at most 120 characters', () => {
    const company = `\u202EdtL regdeL\u202C ${'Kobo '.repeat(170)}\u0007Ltd`;
    const gap: WatchChange = { kind: 'gap-added', title: `Travel rule\u2067 ${'x'.repeat(400)}\n\u0000`, severity: 'critical' };
    const one = buildDigest(en, [{ watch: buildWatch(1, { company }), changes: [gap] }], FIXTURE_NOW);
    const many = buildDigest(
      en,
      [1, 2].map((i) => ({ watch: buildWatch(i, { company }), changes: [gap] })),
      FIXTURE_NOW,
    );
    for (const text of [one?.title, one?.message, many?.message]) {
      expect(text).toBeDefined();
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      expect(text).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u202A-\u202E\u2066-\u2069]/);
    }
    expect([...(one?.title ?? '')].length).toBeLessThanOrEqual(120);
    expect(one?.title).toMatch(/^dtL regdeL Kobo Kobo .*…$/);
    for (const line of [...(one?.message.split('\n') ?? []), ...(many?.message.split('\n') ?? [])]) {
      expect([...line].length, line).toBeLessThanOrEqual(260);
    }
  });

  it('nothing to say: no notification', async () => {
    const notifications = { create: vi.fn(async () => 'id'), clear: vi.fn(async () => true) };
    const notify = createNotifier({ notifications, iconUrl: 'icon.png', translator: async () => en });
    await notify([]);
    expect(notifications.create).not.toHaveBeenCalled();
    await notify([{ watch: buildWatch(1), changes: [up] }]);
    expect(notifications.create).toHaveBeenCalledWith(NOTIFICATION_PREFIX + buildWatch(1).id, {
      type: 'basic',
      iconUrl: 'icon.png',
      title: 'Kobo Ledger Ltd',
      message: 'Readiness score 68 → 80 (+12)',
    });
  });
});

describe('clicking a notification', () => {
  function deps(sidePanelWorks: boolean | undefined) {
    const calls: string[] = [];
    return {
      calls,
      deps: {
        ...(sidePanelWorks === undefined
          ? {}
          : {
              sidePanel: {
                open: vi.fn(async () => {
                  calls.push('sidePanel.open');
                  if (!sidePanelWorks) throw new Error('sidePanel.open() may only be called in response to a user gesture.');
                }),
              },
            }),
        windowId: -2,
        pageUrl: 'chrome-extension://id/sidepanel.html',
        openTab: vi.fn(async (url: string) => calls.push(`tab ${url}`)),
        requestFocus: vi.fn(async (id: string | null) => {
          calls.push(`focus ${id}`);
        }),
        clear: vi.fn(async () => true),
      },
    };
  }
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('Chrome: opens the side panel first (nothing awaited before it), at that company', async () => {
    const { calls, deps: d } = deps(true);
    expect(onNotificationClicked(NOTIFICATION_PREFIX + 'abc', d)).toBe(true);
    expect(calls[0]).toBe('sidePanel.open');
    await flush();
    expect(calls).toEqual(['sidePanel.open', 'focus abc']);
    expect(d.clear).toHaveBeenCalledWith(NOTIFICATION_PREFIX + 'abc');
  });

  it('Chrome refusing it (no user gesture): the side panel page in a tab instead', async () => {
    const { calls, deps: d } = deps(false);
    onNotificationClicked(`${NOTIFICATION_PREFIX}all`, d);
    await flush();
    expect(calls).toEqual(['sidePanel.open', 'focus null', 'tab chrome-extension://id/sidepanel.html#watchlist']);
  });

  it('Firefox (no sidePanel): a tab', async () => {
    const { calls, deps: d } = deps(undefined);
    onNotificationClicked(NOTIFICATION_PREFIX + 'abc', d);
    await flush();
    expect(calls).toEqual(['focus abc', 'tab chrome-extension://id/sidepanel.html#watchlist']);
  });

  it('ignores notifications that are not ours', () => {
    const { calls, deps: d } = deps(true);
    expect(onNotificationClicked('someone-else', d)).toBe(false);
    expect(calls).toEqual([]);
  });
});
