// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { createBadge } from '@/lib/content/annotator/badge';
import { describeBadge, type BadgeView } from '@/lib/content/annotator/badge-view';
import { EN_TEXT, FR_TEXT } from './badge-text';

const describeEn = (view: BadgeView, now: number) => describeBadge(view, now, EN_TEXT);

const NOW = Date.parse('2026-11-22T08:00:00.000Z');

describe('badge texts and accessible names', () => {
  // [state, view, what the chip shows, its tone, dashed, its accessible name]
  const cases: [string, BadgeView, string, string, boolean, RegExp][] = [
    ['idle (not loaded)', { state: 'idle' }, 'CL', 'neutral', true, /hover or press Enter to load \(counts as a view\)/],
    ['loading', { state: 'loading' }, 'CL', 'neutral', false, /loading/],
    [
      "ready: the readiness score with its scale, in the label's tone",
      { state: 'ready', score: 76, label: 'Good Standing', band: 'medium' },
      '76/100',
      'blue',
      false,
      /readiness 76\/100, Good Standing; medium fundraising risk/,
    ],
    ['not found', { state: 'error', code: 'NOT_FOUND' }, '?', 'neutral', true, /does not know this share link/],
    ['withdrawn', { state: 'error', code: 'NOT_FOUND', withdrawn: true }, '⊘', 'red', false, /founder has revoked/],
    [
      'expired with date',
      { state: 'error', code: 'EXPIRED', expiredAt: '2026-11-20T10:00:00.000Z' },
      '◷',
      'neutral',
      false,
      /expired on 20 November 2026/,
    ],
    ['expired without date', { state: 'error', code: 'EXPIRED' }, '◷', 'neutral', false, /this share link expired\./],
    [
      'rate limited',
      { state: 'error', code: 'RATE_LIMITED', retryAt: NOW + 90_000 },
      '2 min',
      'amber',
      false,
      /try again in 2 minutes/,
    ],
    [
      'rate limited, seconds',
      { state: 'error', code: 'RATE_LIMITED', retryAt: NOW + 42_500 },
      '43 s',
      'amber',
      false,
      /in 43 seconds/,
    ],
    ['rate limited, no time', { state: 'error', code: 'RATE_LIMITED' }, '!', 'amber', false, /try again shortly/],
    ['network', { state: 'error', code: 'NETWORK' }, '!', 'amber', false, /could not be reached/],
    ['timeout', { state: 'error', code: 'TIMEOUT' }, '!', 'amber', false, /did not answer in time/],
    ['invalid response', { state: 'error', code: 'INVALID_RESPONSE' }, '!', 'orange', false, /could not be verified/],
    ['not enabled', { state: 'error', code: 'FORBIDDEN_ORIGIN' }, '–', 'neutral', true, /not enabled/],
    ['a code this build does not know', { state: 'error', code: 'SOMETHING_NEW' }, '!', 'orange', false, /SOMETHING_NEW/],
  ];

  it.each(cases)('%s', (_name, view, text, tone, dashed, label) => {
    const description = describeBadge(view, NOW, EN_TEXT);
    expect(description).toMatchObject({ text, tone, dashed });
    expect(description.label).toMatch(label);
  });

  it('withdrawn, expired, not found and not loaded look different from each other', () => {
    const looks = [
      { state: 'error', code: 'NOT_FOUND', withdrawn: true },
      { state: 'error', code: 'EXPIRED' },
      { state: 'error', code: 'NOT_FOUND' },
      { state: 'idle' },
    ].map((view) => {
      const { text, tone, dashed } = describeBadge(view as BadgeView, NOW, EN_TEXT);
      return `${text}|${tone}|${dashed}`;
    });
    expect(new Set(looks).size).toBe(4);
  });

  it('the idle name is the one the issue asks for', () => {
    expect(describeBadge({ state: 'idle' }, NOW, EN_TEXT).label).toBe(
      'Compliance snapshot — hover or press Enter to load (counts as a view)',
    );
  });

  it('speaks French to a French reader: words, dates and relative times', () => {
    const ready = describeBadge({ state: 'ready', score: 76, label: 'Good Standing', band: 'investor_ready' }, NOW, FR_TEXT);
    expect(ready.text).toBe('76/100');
    expect(ready.label).toMatch(/préparation 76\/100, En règle/);
    const expired = describeBadge({ state: 'error', code: 'EXPIRED', expiredAt: '2026-11-20T10:00:00.000Z' }, NOW, FR_TEXT);
    expect(expired.label).toMatch(/20 novembre 2026/);
    const limited = describeBadge({ state: 'error', code: 'RATE_LIMITED', retryAt: NOW + 90_000 }, NOW, FR_TEXT);
    expect(limited.label).toMatch(/dans 2 minutes/);
    for (const view of [{ state: 'idle' }, { state: 'error', code: 'NOT_FOUND' }, { state: 'error', code: 'NETWORK' }] as const) {
      expect(describeBadge(view, NOW, FR_TEXT).label).not.toBe(describeBadge(view, NOW, EN_TEXT).label);
    }
  });

  it('a string the background did not send reads as its key, never as another language or undefined', () => {
    const description = describeBadge({ state: 'idle' }, NOW, { locale: 'en-GB', strings: {} });
    expect(description).toMatchObject({ text: 'CL', label: 'badge.idle.label' });
  });

  it('colours ready badges by readiness label, as the card and /share do', () => {
    const tone = (label: 'Critical' | 'In Progress' | 'Good Standing' | 'Regulator Ready') =>
      describeBadge({ state: 'ready', score: 50, label, band: 'high' }, NOW, EN_TEXT).tone;
    expect([tone('Critical'), tone('In Progress'), tone('Good Standing'), tone('Regulator Ready')]).toEqual([
      'red',
      'amber',
      'blue',
      'green',
    ]);
  });
});

describe('badge element', () => {
  it('is a focusable role=button in a shadow root, with state on the host', () => {
    const badge = createBadge(document, { onActivate: vi.fn(), onEscape: vi.fn() }, describeEn);
    document.body.append(badge.host);
    badge.render({ state: 'error', code: 'EXPIRED', expiredAt: '2026-11-20T10:00:00.000Z' }, NOW);

    expect(badge.host.localName).toBe('compliance-lens-badge');
    expect(badge.host.getAttribute('data-state')).toBe('error');
    expect(badge.host.getAttribute('data-error-code')).toBe('EXPIRED');
    expect(badge.host.shadowRoot).toBeNull(); // closed: the page cannot read it
    expect(badge.host.textContent).toBe(''); // nothing in light DOM
    expect(badge.button.getAttribute('role')).toBe('button');
    expect(badge.button.tabIndex).toBe(0);
    expect(badge.button.getAttribute('aria-label')).toMatch(/expired on 20 November 2026/);

    badge.render({ state: 'ready', score: 76, label: 'Good Standing', band: 'medium' }, NOW);
    expect(badge.host.hasAttribute('data-error-code')).toBe(false);
    expect(badge.button.textContent).toBe('76/100');
    badge.render({ state: 'error', code: 'NOT_FOUND', withdrawn: true }, NOW);
    expect(badge.host.getAttribute('data-error-code')).toBe('NOT_FOUND');
    expect(badge.host.hasAttribute('data-withdrawn')).toBe(true);
    expect(badge.button.hasAttribute('data-dashed')).toBe(false);
    badge.render({ state: 'error', code: 'NOT_FOUND' }, NOW);
    expect(badge.host.hasAttribute('data-withdrawn')).toBe(false);
    expect(badge.button.hasAttribute('data-dashed')).toBe(true);
    badge.remove();
  });

  it('starts hidden and idle, each badge its own element; drawing shows it; states come and go', () => {
    const callbacks = { onActivate: vi.fn(), onEscape: vi.fn() };
    const first = createBadge(document, callbacks, describeEn);
    const second = createBadge(document, callbacks, describeEn);
    document.body.append(first.host, second.host);
    expect(first.host).not.toBe(second.host);
    for (const badge of [first, second]) {
      expect(badge.host.hidden).toBe(true);
      expect(badge.host.getAttribute('data-state')).toBe('idle');
      expect(badge.drawn).toBe(false);
    }

    first.render({ state: 'loading' }, NOW);
    expect(first.host.getAttribute('data-state')).toBe('loading');
    expect(second.host.getAttribute('data-state')).toBe('idle');
    first.render({ state: 'idle' }, NOW);
    expect(first.host.getAttribute('data-state')).toBe('idle');

    second.draw();
    expect(second.drawn).toBe(true);
    expect(second.host.hidden).toBe(false);
    expect(first.host.hidden).toBe(true);
    first.remove();
    second.remove();
  });

  it('Enter and Space activate (once, not on key repeat); Escape reports; click activates', () => {
    const onActivate = vi.fn();
    const onEscape = vi.fn();
    const badge = createBadge(document, { onActivate, onEscape }, describeEn);
    document.body.append(badge.host);
    const key = (k: string, repeat = false) =>
      badge.button.dispatchEvent(new KeyboardEvent('keydown', { key: k, repeat, bubbles: true, cancelable: true }));

    expect(key('Enter')).toBe(false); // default prevented
    key(' ');
    key('Enter', true);
    key('Escape');
    badge.button.click();
    // The badge names itself: one callbacks object serves every badge of a page.
    expect(onActivate.mock.calls).toEqual([
      [badge, 'keyboard'],
      [badge, 'keyboard'],
      [badge, 'click'],
    ]);
    expect(onEscape.mock.calls).toEqual([[badge]]);
    badge.remove();
  });

  it('stops its spinner for reduced motion and adapts to dark mode (in its stylesheet)', () => {
    const badge = createBadge(document, { onActivate: vi.fn(), onEscape: vi.fn() }, describeEn);
    const css = badge.button.parentNode?.querySelector('style')?.textContent ?? '';
    expect(css).toMatch(/prefers-reduced-motion:reduce\)\{\.s\{animation:none/);
    expect(css).toMatch(/prefers-color-scheme:dark/);
    expect(css).toMatch(/:host\{all:initial/);
  });
});
