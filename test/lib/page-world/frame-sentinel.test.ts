// @vitest-environment happy-dom
/**
 * The frame sentinel, in the page's own world of an about:blank/srcdoc frame: it marks its document,
 * signals (once per burst) when links or an open shadow root appear or an href changes, and stops
 * when the annotator takes over. Its signal goes to every window above the frame.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FRAME_LINKS_SIGNAL, FRAME_CHANGED_MARK, FRAME_SENTINEL_STOP } from '@/lib/protocol/guarded/frame-signals';
import { SIGNAL_DELAY_MS, signalAncestors, watchFrameLinks } from '@/lib/page-world/frame-sentinel';

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

function watch() {
  vi.useFakeTimers();
  const signal = vi.fn();
  const stop = watchFrameLinks(window, signal);
  const settle = async () => {
    await Promise.resolve(); // the observer's records
    await vi.advanceTimersByTimeAsync(SIGNAL_DELAY_MS);
  };
  return { signal, stop, settle };
}

describe('watchFrameLinks', () => {
  it('marks its document as changed when links come, before it signals (the background reads marked frames only)', async () => {
    Reflect.deleteProperty(document, Symbol.for(FRAME_CHANGED_MARK));
    const { signal, stop, settle } = watch();
    expect(Reflect.get(document, Symbol.for(FRAME_CHANGED_MARK))).toBeUndefined();
    document.body.insertAdjacentHTML('beforeend', '<a href="https://a.test/1">1</a>');
    await Promise.resolve();
    expect(Reflect.get(document, Symbol.for(FRAME_CHANGED_MARK))).toBe(true);
    expect(signal).not.toHaveBeenCalled();
    await settle();
    expect(signal).toHaveBeenCalledTimes(1);
    stop();
  });

  it('signals once for a burst of added links, again for a later one, and not for text', async () => {
    const { signal, stop, settle } = watch();
    document.body.insertAdjacentHTML('beforeend', '<p>no link yet</p>');
    await settle();
    expect(signal).not.toHaveBeenCalled();
    document.body.insertAdjacentHTML('beforeend', '<p><a href="https://a.test/1">1</a></p>');
    document.body.insertAdjacentHTML('beforeend', '<a href="https://a.test/2">2</a>');
    await settle();
    expect(signal).toHaveBeenCalledTimes(1);
    document.body.insertAdjacentHTML('beforeend', '<div><span><a href="https://a.test/3">3</a></span></div>');
    await settle();
    expect(signal).toHaveBeenCalledTimes(2);
    stop();
  });

  it('signals for a changed href and for an open shadow root (a web component fills it later)', async () => {
    document.body.innerHTML = '<a id="later" href="https://a.test/old">x</a>';
    const { signal, stop, settle } = watch();
    await settle();
    expect(signal).toHaveBeenCalledTimes(1); // links already there
    document.getElementById('later')?.setAttribute('href', 'https://a.test/new');
    await settle();
    expect(signal).toHaveBeenCalledTimes(2);
    const host = document.createElement('deal-card');
    host.attachShadow({ mode: 'open' });
    const wrapper = document.createElement('section');
    wrapper.append(host);
    document.body.append(wrapper);
    await settle();
    expect(signal).toHaveBeenCalledTimes(3);
    stop();
  });

  it('stops when the annotator takes over the frame', async () => {
    const { signal, settle } = watch();
    window.dispatchEvent(new Event(FRAME_SENTINEL_STOP));
    document.body.insertAdjacentHTML('beforeend', '<a href="https://a.test/1">1</a>');
    await settle();
    expect(signal).not.toHaveBeenCalled();
  });
});

describe('watchFrameLinks and frames without scripts', () => {
  it('speaks for a sandboxed frame without scripts that loads inside, also once the annotator took over the links', async () => {
    const { signal, stop, settle } = watch();
    window.dispatchEvent(new Event(FRAME_SENTINEL_STOP));
    const body = document.createElement('iframe');
    body.setAttribute('sandbox', 'allow-same-origin');
    document.body.append(body);
    await settle();
    expect(signal).not.toHaveBeenCalled(); // no link, and not loaded yet
    body.dispatchEvent(new Event('load'));
    await settle();
    expect(signal).toHaveBeenCalledTimes(1);
    stop();
    body.dispatchEvent(new Event('load'));
    await settle();
    expect(signal).toHaveBeenCalledTimes(1);
  });
});

describe('signalAncestors', () => {
  it('posts the signal to every window above the frame, up to the top, and to no other', () => {
    const posted: string[] = [];
    const windowNamed = (name: string, parent?: Window): Window => {
      const win = { postMessage: (data: unknown, target: string) => posted.push(`${name} ${String(data)} ${target}`) } as {
        parent?: Window;
        postMessage(data: unknown, target: string): void;
      };
      win.parent = parent ?? (win as unknown as Window);
      return win as unknown as Window;
    };
    const top = windowNamed('top');
    const middle = windowNamed('middle', top);
    signalAncestors(windowNamed('frame', middle));
    expect(posted).toEqual([`middle ${FRAME_LINKS_SIGNAL} *`, `top ${FRAME_LINKS_SIGNAL} *`]);
  });
});
