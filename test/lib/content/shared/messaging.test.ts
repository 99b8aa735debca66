/**
 * The content script's messaging speaks @webext-core/messaging's wire format (lib/content/shared/messaging.ts):
 * held here to the real library, both ways, as the background and the extension pages use it.
 */
import { defineExtensionMessaging } from '@webext-core/messaging';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { contentMessenger } from '@/lib/content/shared/messaging';

interface TestProtocol {
  echo(data: { text: string }): { text: string; from: unknown };
  fail(): void;
  ping(): string;
}

beforeEach(() => fakeBrowser.reset());

describe('content-script messaging against @webext-core/messaging', () => {
  it('a content-script message reaches a library handler with its data, and the answer comes back', async () => {
    const background = defineExtensionMessaging<TestProtocol>();
    const remove = background.onMessage('echo', ({ data, sender }) => ({ text: data.text.toUpperCase(), from: sender }));
    expect(await contentMessenger<TestProtocol>().send('echo', { text: 'kobo' })).toMatchObject({ text: 'KOBO' });
    remove();
  });

  it('an error thrown by the library handler rejects the content script’s send with its message', async () => {
    const background = defineExtensionMessaging<TestProtocol>();
    const remove = background.onMessage('fail', () => {
      throw new Error('Malformed "fail" message');
    });
    await expect(contentMessenger<TestProtocol>().send('fail')).rejects.toThrow('Malformed "fail" message');
    remove();
  });

  it('no handler at all rejects instead of hanging', async () => {
    await expect(contentMessenger<TestProtocol>().send('ping')).rejects.toThrow();
  });

  it('a library message reaches a content-script handler, and the library reads its answer (and its error)', async () => {
    const content = contentMessenger<TestProtocol>();
    const removePing = content.answer('ping', () => 'pong');
    const removeFail = content.answer('fail', () => {
      throw new Error('no engine');
    });
    const page = defineExtensionMessaging<TestProtocol>();
    expect(await page.sendMessage('ping')).toBe('pong');
    await expect(page.sendMessage('fail')).rejects.toThrow('no engine');
    removePing();
    removeFail();
  });

  it('ignores what is not a message of its type (other types, other formats)', async () => {
    const content = contentMessenger<TestProtocol>();
    let calls = 0;
    const remove = content.answer('ping', () => (calls += 1));
    const page = defineExtensionMessaging<TestProtocol>();
    const removeEcho = page.onMessage('echo', ({ data }) => ({ text: data.text, from: null }));
    expect(await contentMessenger<TestProtocol>().send('echo', { text: 'x' })).toMatchObject({ text: 'x' });
    await fakeBrowser.runtime.sendMessage({ type: 'ping' }).catch(() => undefined); // no timestamp: not the format
    expect(calls).toBe(0);
    remove();
    removeEcho();
  });
});
