// @vitest-environment happy-dom
/**
 * Sandboxed frames without scripts: no page-world sentinel can run in them, so the document above
 * speaks for them, at once and whenever one loads (a frame's `load` reaches a capturing listener on
 * the document). Other frames and other loads say nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SCRIPTLESS_FRAME_SELECTOR, watchScriptlessFrames } from '@/lib/dom';
import { withForeignPrototype } from '../../support/realms';

afterEach(() => {
  document.body.innerHTML = '';
});

/** A frame element (happy-dom loads no frames: its `load` is dispatched by hand, as the browser would). */
function frame(sandbox: string | null): HTMLIFrameElement {
  const element = document.createElement('iframe');
  if (sandbox !== null) element.setAttribute('sandbox', sandbox);
  document.body.append(element);
  return element;
}

describe('SCRIPTLESS_FRAME_SELECTOR', () => {
  it.each([
    ['', true],
    ['allow-same-origin allow-popups', true],
    ['allow-scripts', false],
    ['allow-same-origin allow-scripts', false],
    ['allow-scripts-not-really', true],
    [null, false],
  ])('sandbox=%j: %s', (sandbox, scriptless) => {
    expect(frame(sandbox).matches(SCRIPTLESS_FRAME_SELECTOR)).toBe(scriptless);
  });
});

describe('watchScriptlessFrames', () => {
  it('speaks at once for a frame already there, and on each load of one, not of other frames or images', () => {
    const existing = frame('allow-same-origin');
    const found = vi.fn();
    const stop = watchScriptlessFrames(document, found);
    expect(found).toHaveBeenCalledTimes(1);

    const scripted = frame('allow-scripts');
    const plain = frame(null);
    const image = document.createElement('img');
    document.body.append(image);
    for (const target of [scripted, plain, image]) target.dispatchEvent(new Event('load'));
    expect(found).toHaveBeenCalledTimes(1);

    existing.dispatchEvent(new Event('load'));
    frame('').dispatchEvent(new Event('load'));
    expect(found).toHaveBeenCalledTimes(3);

    stop();
    existing.dispatchEvent(new Event('load'));
    expect(found).toHaveBeenCalledTimes(3);
  });

  it('says nothing for a document without one', () => {
    frame('allow-scripts');
    const found = vi.fn();
    watchScriptlessFrames(document, found)();
    expect(found).not.toHaveBeenCalled();
  });

  it("speaks for a frame element that carries another realm's prototypes (the page touched it from another window first)", () => {
    const found = vi.fn();
    const stop = watchScriptlessFrames(document, found);
    const foreign = withForeignPrototype(frame(''), HTMLIFrameElement);
    foreign.dispatchEvent(new Event('load'));
    expect(found).toHaveBeenCalledTimes(1);
    stop();
  });
});
