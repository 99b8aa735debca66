// @vitest-environment happy-dom
/**
 * The frame probe: a subframe touches no extension API until it holds a link (or an open shadow root
 * a web component may fill); then it asks which links may be share links (the background's
 * `frameCandidates`, here answered by the real recogniser) and asks for the annotator once one of
 * those is present, never before and only once. The top frame never asks.
 */
import { Window as HappyWindow } from 'happy-dom';
import { describe, expect, it, vi } from 'vitest';
import { probeFrame, relayFrameSignals, whenPresent, type FrameProbeDeps } from '@/lib/content/frame-probe';
import { FRAME_LINKS_SIGNAL } from '@/lib/core/frame-signals';
import { createLinkRecognizer } from '@/lib/core/links';
import type { ServiceConfig } from '@/lib/core/services';
import { SERVICE, shareUrl } from './helpers';

const OTHER_SERVICE: ServiceConfig = { ...SERVICE, id: 'other', name: 'Other', origin: 'https://ratings.test' };

/** A subframe's document (its own, not the test window's). */
function subframeDocument(html = ''): Document {
  const doc = document.implementation.createHTMLDocument('frame');
  doc.body.innerHTML = html;
  return doc;
}

/** Deps of a probe whose background answers nothing of interest, with `overrides`. */
const probeDeps = (overrides: Partial<FrameProbeDeps>): FrameProbeDeps => ({
  isTopFrame: false,
  window,
  document: subframeDocument(),
  candidates: async () => ({ selector: null }),
  onServicesChanged: () => () => undefined,
  start: async () => ({ ok: true }),
  locate: async () => ({ ok: true }),
  ...overrides,
});

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A probe in a subframe whose background knows `services` (changed with `setServices`). */
function probe(html = '', initial: readonly ServiceConfig[] = [SERVICE]) {
  const doc = subframeDocument(html);
  let services = initial;
  const listeners = new Set<() => void>();
  const deps = {
    isTopFrame: false,
    window,
    document: doc,
    candidates: vi.fn(async (baseURI: string): Promise<unknown> => ({
      selector: createLinkRecognizer(services).candidateSelector(baseURI),
    })),
    onServicesChanged: vi.fn((listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    }),
    start: vi.fn(async (): Promise<unknown> => ({ ok: true })),
    locate: vi.fn(async (): Promise<unknown> => ({ ok: true })),
  } satisfies FrameProbeDeps;
  return {
    doc,
    deps,
    listeners,
    running: probeFrame(deps),
    setServices(next: readonly ServiceConfig[]) {
      services = next;
      for (const listener of [...listeners]) listener();
    },
  };
}

describe('probeFrame', () => {
  it('asks at once in a frame that already holds a share link', async () => {
    const frame = probe(`<p>Hi <a href="${shareUrl(1)}">link</a></p>`);
    await frame.running;
    expect(frame.deps.candidates).toHaveBeenCalledTimes(1);
    expect(frame.deps.start).toHaveBeenCalledTimes(1);
  });

  it('touches nothing of the extension in a frame without links; asks once a share link is added, and not again', async () => {
    const frame = probe('<p>No links here.</p>');
    // Text, images and anchors without href are not links.
    frame.doc.body.insertAdjacentHTML('beforeend', '<p>more text <img alt=""> <a name="x">anchor</a></p>');
    await settle();
    expect(frame.deps.candidates).not.toHaveBeenCalled();
    expect(frame.deps.onServicesChanged).not.toHaveBeenCalled();
    expect(frame.deps.start).not.toHaveBeenCalled();
    frame.doc.body.insertAdjacentHTML('beforeend', `<div><p><a href="${shareUrl(2)}">deep link</a></p></div>`);
    await frame.running;
    frame.doc.body.insertAdjacentHTML('beforeend', `<a href="${shareUrl(3)}">another</a>`);
    await settle();
    expect(frame.deps.start).toHaveBeenCalledTimes(1);
  });

  it('a mail body of ordinary links costs one question and no annotator, until a share link comes', async () => {
    // (A look-alike host names the service's host, so it passes this first cut: the annotator refuses it.)
    const frame = probe('<p><a href="https://example.org/a">a</a> <a href="https://news.test/comply">b</a></p>');
    await settle();
    expect(frame.deps.candidates).toHaveBeenCalledWith(frame.doc.baseURI);
    frame.doc.body.insertAdjacentHTML('beforeend', '<p><a href="https://example.org/b">more ordinary links</a></p>');
    await settle();
    expect(frame.deps.candidates).toHaveBeenCalledTimes(1);
    expect(frame.deps.start).not.toHaveBeenCalled();
    frame.doc.body.insertAdjacentHTML('beforeend', `<p><a href="${shareUrl(4)}">snapshot</a></p>`);
    await frame.running;
    expect(frame.deps.start).toHaveBeenCalledTimes(1);
    expect(frame.listeners.size).toBe(0); // the settings listener is let go
  });

  it('an ordinary link whose href is changed to a share link starts the annotator', async () => {
    const frame = probe('<a id="l" href="https://example.org/a">a</a>');
    await settle();
    expect(frame.deps.start).not.toHaveBeenCalled();
    frame.doc.getElementById('l')?.setAttribute('href', shareUrl(5));
    await frame.running;
    expect(frame.deps.start).toHaveBeenCalledTimes(1);
  });

  it('asks again when the services change: a link of a service added later starts the annotator', async () => {
    const other = `${OTHER_SERVICE.origin}/share/${shareUrl(6).split('/share/')[1] ?? ''}`;
    const frame = probe(`<a href="${other}">the other service's link</a>`);
    await settle();
    expect(frame.deps.start).not.toHaveBeenCalled();
    frame.setServices([SERVICE, OTHER_SERVICE]);
    await frame.running;
    expect(frame.deps.candidates).toHaveBeenCalledTimes(2);
    expect(frame.deps.start).toHaveBeenCalledTimes(1);
  });

  it('with no service configured it waits (nothing can be a share link) until one is', async () => {
    const frame = probe(`<a href="${shareUrl(7)}">link</a>`, []);
    await settle();
    expect(frame.deps.start).not.toHaveBeenCalled();
    frame.setServices([SERVICE]);
    await frame.running;
    expect(frame.deps.start).toHaveBeenCalledTimes(1);
  });

  it('an answer that arrives after a newer one is ignored', async () => {
    const doc = subframeDocument('<a href="https://example.org/a">a</a>');
    const answers: ((answer: unknown) => void)[] = [];
    let changed = () => {};
    const start = vi.fn(async (): Promise<unknown> => ({ ok: true }));
    void probeFrame(
      probeDeps({
        document: doc,
        candidates: () => new Promise((resolve) => answers.push(resolve)),
        onServicesChanged: (listener) => ((changed = listener), () => undefined),
        start,
      }),
    );
    await settle();
    changed();
    await settle();
    answers[1]?.({ selector: 'a[href*="nothing-here"]' });
    await settle();
    answers[0]?.({ selector: 'a[href]' }); // older, for services no longer configured
    await settle();
    expect(start).not.toHaveBeenCalled();
  });

  it.each([
    ['no answer (the background failed)', () => Promise.reject(new Error('no receiver'))],
    ['a malformed answer', () => Promise.resolve({ selector: 42 })],
    ['a selector the browser rejects', () => Promise.resolve({ selector: 'a[' })],
  ])('%s: the annotator is started on any link and decides itself', async (_case, candidates) => {
    const doc = subframeDocument('<a href="https://example.org/a">a</a>');
    const start = vi.fn(async (): Promise<unknown> => ({ ok: true }));
    await probeFrame(probeDeps({ document: doc, candidates, start }));
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('asks for a web component with an open shadow root (its content may come later)', async () => {
    const frame = probe();
    const wrapper = frame.doc.createElement('section');
    const host = frame.doc.createElement('deal-record');
    host.attachShadow({ mode: 'open' });
    wrapper.append(host);
    frame.doc.body.append(wrapper);
    await frame.running;
    expect(frame.deps.start).toHaveBeenCalledTimes(1);
  });

  it('does nothing in the top frame (the manifest runs the annotator there)', async () => {
    const doc = subframeDocument(`<a href="${shareUrl(8)}">link</a>`);
    const start = vi.fn(async (): Promise<unknown> => ({ ok: true }));
    const candidates = vi.fn(async (): Promise<unknown> => ({ selector: 'a[href]' }));
    await probeFrame(probeDeps({ isTopFrame: true, document: doc, candidates, start }));
    expect(candidates).not.toHaveBeenCalled();
    expect(start).not.toHaveBeenCalled();
  });

  it('an extension that went away meanwhile: the refused request is dropped, not thrown into the page', async () => {
    const frame = probe(`<a href="${shareUrl(9)}">link</a>`);
    frame.deps.start.mockRejectedValue(new Error('Extension context invalidated.'));
    await expect(frame.running).resolves.toBeUndefined();
  });
});

describe('whenPresent', () => {
  it('resolves for a written document (document.open/write), as mail clients fill about:blank frames', async () => {
    const doc = subframeDocument();
    let resolved = false;
    const appearing = whenPresent(doc, 'a[href]').then(() => (resolved = true));
    doc.open();
    doc.write('<p>Forwarded: <a href="/share/z">snapshot</a></p>');
    doc.close();
    await appearing;
    expect(resolved).toBe(true);
  });

  it('resolves when an anchor gets an href later', async () => {
    const doc = subframeDocument('<a id="a" name="x">anchor</a>');
    const appearing = whenPresent(doc, 'a[href]');
    doc.getElementById('a')?.setAttribute('href', '/x');
    await expect(appearing).resolves.toBeUndefined();
  });
});

describe('relayFrameSignals', () => {
  // A frame's window (happy-dom loads no frames: another window stands in for one).
  const otherWindow = () => new HappyWindow() as unknown as MessageEventSource;
  const fromFrame = (data: unknown, source: MessageEventSource | null) =>
    window.dispatchEvent(new MessageEvent('message', { data, source }));

  it("relays a sentinel's signal, once per burst, and nothing else", async () => {
    let finish = () => {};
    const locate = vi.fn(() => new Promise<unknown>((resolve) => (finish = () => resolve({ ok: true }))));
    const stop = relayFrameSignals(window, locate);
    const other = otherWindow();

    fromFrame('compliance-lens:frame-link', other);
    fromFrame({ type: FRAME_LINKS_SIGNAL }, other);
    expect(locate).not.toHaveBeenCalled();

    fromFrame(FRAME_LINKS_SIGNAL, other);
    fromFrame(FRAME_LINKS_SIGNAL, other);
    fromFrame(FRAME_LINKS_SIGNAL, other);
    expect(locate).toHaveBeenCalledTimes(1);
    finish();
    await settle();
    expect(locate).toHaveBeenCalledTimes(2); // the signals during the first look
    finish();
    await settle();
    stop();
    fromFrame(FRAME_LINKS_SIGNAL, other);
    expect(locate).toHaveBeenCalledTimes(2);
  });

  it('asks for a look when a sandboxed frame without scripts loads here (no sentinel can run in it)', async () => {
    const locate = vi.fn(async (): Promise<unknown> => ({ ok: true }));
    const stop = relayFrameSignals(window, locate);
    const body = document.createElement('iframe');
    body.setAttribute('sandbox', '');
    document.body.append(body);
    expect(locate).not.toHaveBeenCalled();
    body.dispatchEvent(new Event('load'));
    expect(locate).toHaveBeenCalledTimes(1);
    stop();
    body.remove();
  });

  it('runs in the top frame too (the sentinels below it signal there)', async () => {
    const locate = vi.fn(async (): Promise<unknown> => ({ ok: true }));
    void probeFrame(probeDeps({ isTopFrame: true, document, locate }));
    fromFrame(FRAME_LINKS_SIGNAL, otherWindow());
    expect(locate).toHaveBeenCalledTimes(1);
  });
});
