// @vitest-environment happy-dom
/**
 * The frame relay, in the top frame: a frame sentinel's signal (or a sandboxed frame without scripts
 * loading) makes one request to the background to look at the tab's frames; a burst of signals during
 * a look makes one more; any other message makes none.
 */
import { Window as HappyWindow } from 'happy-dom';
import { describe, expect, it, vi } from 'vitest';
import { relayFrameSignals } from '@/lib/content/top-frame/frame-relay';
import { FRAME_LINKS_SIGNAL } from '@/lib/protocol/guarded/frame-signals';

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('relayFrameSignals', () => {
  // A frame's window (happy-dom loads no frames: another window stands in for one).
  const otherWindow = () => new HappyWindow() as unknown as MessageEventSource;
  const fromFrame = (data: unknown, source: MessageEventSource | null) =>
    window.dispatchEvent(new MessageEvent('message', { data, source }));

  it("relays a sentinel's signal, once per burst, and nothing else", async () => {
    let finish = () => {};
    const locate = vi.fn(() => new Promise<unknown>((resolve) => (finish = () => resolve({ ok: true }))));
    const lifetime = new AbortController();
    relayFrameSignals(window, locate, lifetime.signal);
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
    lifetime.abort();
    fromFrame(FRAME_LINKS_SIGNAL, other);
    expect(locate).toHaveBeenCalledTimes(2);
  });

  it('asks for a look when a sandboxed frame without scripts loads here (no sentinel can run in it)', async () => {
    const locate = vi.fn(async (): Promise<unknown> => ({ ok: true }));
    const lifetime = new AbortController();
    relayFrameSignals(window, locate, lifetime.signal);
    const body = document.createElement('iframe');
    body.setAttribute('sandbox', '');
    document.body.append(body);
    expect(locate).not.toHaveBeenCalled();
    body.dispatchEvent(new Event('load'));
    expect(locate).toHaveBeenCalledTimes(1);
    lifetime.abort();
    body.remove();
  });
});
