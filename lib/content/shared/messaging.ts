import type { Browser } from 'wxt/browser';
import { isRecord, isString } from '../../core/guards';
import { messageOf } from '../../core/thrown';

/**
 * The content script's side of @webext-core/messaging, in that library's wire format: a message is
 * `{ id, type, data, timestamp }`, an answer `{ res }` or `{ err }`. The background and the extension
 * pages use the library itself; the content script speaks its format in these few lines because the
 * library and its error serialiser took ~1 KB gzip of the 15 KB budget (docs/design-changes.md).
 * test/lib/content/shared/messaging.test.ts holds both sides to each other, through the real library.
 */
export interface ContentMessenger<Map> {
  /** Sends `type` and resolves with the answer (unchecked: the caller's guards check it); rejects with the handler's error. */
  send<Type extends keyof Map & string>(
    type: Type,
    ...data: Map[Type] extends (data: infer Data) => unknown ? [data?: Data] : []
  ): Promise<unknown>;
  /**
   * Answers `type` messages (one handler per type and context, as the library has it). The handler
   * gets the message's data unchecked: its guards check it.
   */
  answer<Type extends keyof Map & string>(type: Type, handler: (data: unknown) => unknown): () => void;
}

let nextId = Math.floor(Math.random() * 1e4);

/** The extension namespaces on `globalThis`, as wxt/browser picks between them. */
interface ExtensionGlobals {
  browser?: typeof Browser;
  chrome?: typeof Browser;
}

/**
 * Looked up at the first message, not when the script loads: the first touch of the extension API
 * builds its bindings in the frame (~0.2 ms and a few KB each, test/bench), which a script must not
 * pay before it has something to say.
 */
export function extensionApi(): typeof Browser {
  const { browser, chrome } = globalThis as ExtensionGlobals;
  const api = browser?.runtime?.id ? browser : chrome;
  if (!api) throw new Error('no extension API here');
  return api;
}

const runtime = () => extensionApi().runtime;

export function contentMessenger<Map>(): ContentMessenger<Map> {
  return {
    async send(type, ...data) {
      const reply: unknown = await runtime().sendMessage({ id: nextId++, type, data: data[0], timestamp: Date.now() });
      if (!isRecord(reply)) throw new Error(`${type}: no answer`);
      if (reply.err != null)
        throw new Error(isRecord(reply.err) && isString(reply.err.message) ? reply.err.message : `${type} failed`);
      return reply.res;
    },
    answer(type, handler) {
      const listener = (message: unknown, _sender: unknown, respond: (answer: unknown) => void) => {
        if (!isRecord(message) || message.type !== type || typeof message.timestamp !== 'number') return false;
        Promise.resolve(message.data)
          .then(handler)
          .then(
            (res) => respond({ res }),
            (error: unknown) => respond({ err: { name: 'Error', message: messageOf(error) } }),
          );
        return true;
      };
      const events = runtime().onMessage;
      events.addListener(listener);
      return () => events.removeListener(listener);
    },
  };
}
