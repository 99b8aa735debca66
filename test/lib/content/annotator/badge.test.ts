// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { createBadge, hostStyle } from '@/lib/content/annotator/badge';
import { describeBadge, type BadgeView } from '@/lib/content/annotator/badge-view';
import { badgeFace, type BadgeFace } from '@/lib/core/badge-face';
import type { BadgeSummary } from '@/lib/core/schemas/results';
import { INVALID_BADGE } from '@/lib/protocol/guarded/content-answers';
import { EN_TEXT, FR_TEXT } from './badge-text';

const describeEn = (view: BadgeView) => describeBadge(view, EN_TEXT);
const face = (summary: BadgeSummary): BadgeFace => badgeFace(summary, EN_TEXT);

describe('what the annotator paints', () => {
  it('says its own words before anything is known: not loaded (dashed), loading', () => {
    expect(describeEn({ state: 'idle' })).toEqual({
      text: 'CL',
      tone: 'neutral',
      dashed: true,
      mark: false,
      label: 'Compliance Lens: compliance snapshot not loaded — hover or press Enter to load it (counts as a view)',
    });
    expect(describeEn({ state: 'loading' })).toMatchObject({
      text: 'CL',
      dashed: false,
      label: expect.stringMatching(/loading/) as unknown,
    });
    expect(describeBadge({ state: 'idle' }, FR_TEXT).label).not.toBe(describeEn({ state: 'idle' }).label);
  });

  it('paints a face as the background worded it', () => {
    const ready = face({ state: 'ready', score: 76, label: 'Good Standing', band: 'medium' });
    expect(describeEn(ready)).toMatchObject({ text: '76/100', tone: 'blue', label: ready.label });
  });

  it('a malformed answer reads "unreadable" in its own words', () => {
    expect(describeEn(INVALID_BADGE).label).toMatch(/could not be verified/);
  });

  it('a string the background did not send reads as its key, never as another language or undefined', () => {
    expect(describeBadge({ state: 'idle' }, { locale: 'en-GB', strings: {}, style: '' })).toMatchObject({
      text: 'CL',
      label: 'badge.idle.label',
    });
  });
});

describe('badge element', () => {
  it('is a focusable role=button in a shadow root, with state on the host', () => {
    const badge = createBadge(document, { onActivate: vi.fn(), onEscape: vi.fn() }, describeEn, () => EN_TEXT.style);
    document.body.append(badge.host);
    badge.render(face({ state: 'error', code: 'EXPIRED', expiredAt: '2026-11-20T10:00:00.000Z' }));

    expect(badge.host.localName).toBe('compliance-lens-badge');
    expect(badge.host.getAttribute('data-state')).toBe('error');
    expect(badge.host.getAttribute('data-error-code')).toBe('EXPIRED');
    expect(badge.host.shadowRoot).toBeNull(); // closed: the page cannot read it
    expect(badge.host.textContent).toBe(''); // nothing in light DOM
    expect(badge.button.getAttribute('role')).toBe('button');
    expect(badge.button.tabIndex).toBe(0);
    expect(badge.button.getAttribute('aria-label')).toMatch(/expired on 20 November 2026/);

    badge.render(face({ state: 'ready', score: 76, label: 'Good Standing', band: 'medium' }));
    expect(badge.host.hasAttribute('data-error-code')).toBe(false);
    expect(badge.button.textContent).toBe('76/100');
    badge.render(face({ state: 'error', code: 'NOT_FOUND', withdrawn: true }));
    expect(badge.host.getAttribute('data-error-code')).toBe('NOT_FOUND');
    expect(badge.host.hasAttribute('data-withdrawn')).toBe(true);
    expect(badge.button.hasAttribute('data-dashed')).toBe(false);
    badge.render(face({ state: 'error', code: 'NOT_FOUND' }));
    expect(badge.host.hasAttribute('data-withdrawn')).toBe(false);
    expect(badge.button.hasAttribute('data-dashed')).toBe(true);
    badge.remove();
  });

  it('starts idle at its full size, each badge its own element (its room is taken before it is drawn); states come and go', () => {
    const callbacks = { onActivate: vi.fn(), onEscape: vi.fn() };
    const first = createBadge(document, callbacks, describeEn, () => EN_TEXT.style);
    const second = createBadge(document, callbacks, describeEn, () => EN_TEXT.style);
    document.body.append(first.host, second.host);
    expect(first.host).not.toBe(second.host);
    for (const badge of [first, second]) {
      expect(badge.host.hidden).toBe(false);
      expect(badge.host.getAttribute('style')).toBe(hostStyle('full'));
      expect(badge.form).toBe('full');
      expect(badge.host.getAttribute('data-state')).toBe('idle');
      expect(badge.drawn).toBe(false);
    }

    first.render({ state: 'loading' });
    expect(first.host.getAttribute('data-state')).toBe('loading');
    expect(second.host.getAttribute('data-state')).toBe('idle');
    first.render({ state: 'idle' });
    expect(first.host.getAttribute('data-state')).toBe('idle');

    second.draw();
    expect(second.drawn).toBe(true);
    expect(first.drawn).toBe(false);
    first.remove();
    second.remove();
  });

  it('is not drawn before the background sent its stylesheet, and is drawn once it has', () => {
    let stylesheet = '';
    const badge = createBadge(document, { onActivate: vi.fn(), onEscape: vi.fn() }, describeEn, () => stylesheet);
    document.body.append(badge.host);
    badge.draw();
    expect(badge.drawn).toBe(false);
    stylesheet = EN_TEXT.style;
    badge.draw();
    expect(badge.drawn).toBe(true);
    expect(badge.button.parentNode?.querySelector('style')?.textContent).toBe(EN_TEXT.style);
    badge.remove();
  });

  it('puts its own style back when the page rewrites it, and takes away attributes a page adds (inert, popover)', async () => {
    const badge = createBadge(document, { onActivate: vi.fn(), onEscape: vi.fn() }, describeEn, () => EN_TEXT.style);
    document.body.append(badge.host);
    badge.setForm('compact');
    expect(badge.host.getAttribute('style')).toBe(hostStyle('compact'));
    expect(badge.host.hasAttribute('data-compact')).toBe(true);
    badge.host.style.opacity = '0';
    badge.host.setAttribute('inert', '');
    badge.host.setAttribute('popover', 'manual');
    await new Promise((resolve) => setTimeout(resolve, 0)); // the mutation observer's callback
    expect(badge.host.getAttribute('style')).toBe(hostStyle('compact'));
    expect(badge.host.hasAttribute('inert')).toBe(false);
    expect(badge.host.hasAttribute('popover')).toBe(false);
    badge.host.removeAttribute('style');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(badge.host.getAttribute('style')).toBe(hostStyle('compact'));
    badge.remove();
  });

  it('Enter and Space activate (once, not on key repeat); Escape reports; click activates', () => {
    const onActivate = vi.fn();
    const onEscape = vi.fn();
    const badge = createBadge(document, { onActivate, onEscape }, describeEn, () => EN_TEXT.style);
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

  it('stops its spinner for reduced motion, follows the page’s scheme (not the system’s), and keeps page rules off its pseudo-elements', () => {
    const badge = createBadge(document, { onActivate: vi.fn(), onEscape: vi.fn() }, describeEn, () => EN_TEXT.style);
    const css = badge.button.parentNode?.querySelector('style')?.textContent ?? '';
    expect(css).toMatch(/prefers-reduced-motion:reduce\)\{\.s\{animation:none/);
    expect(css).toMatch(/:host\(\[data-scheme=dark\]\) \.b\[data-tone=green\]/);
    expect(css).not.toMatch(/prefers-color-scheme/);
    expect(css).toMatch(/:host::before,:host::after\{content:none!important/);
  });

  it('in every form its host style resets what a page could use to hide it, all of it !important', () => {
    for (const form of ['full', 'compact', 'out', 'none'] as const) {
      const style = hostStyle(form, 3, -4);
      expect(style.startsWith('all:initial!important;')).toBe(true);
      for (const declaration of style.split(';').filter(Boolean)) expect(declaration).toMatch(/!important$/);
    }
    expect(hostStyle('out', 3, -4)).toContain('position:absolute!important;');
    expect(hostStyle('out', 3, -4)).toContain('margin:-4px 0 0 3px!important');
  });
});
