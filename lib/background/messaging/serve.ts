import type { ExtensionMessenger } from '@webext-core/messaging';
import type { z } from 'zod';
import type { ParsedInput, ProtocolDefinitions, ProtocolMapOf } from '../../protocol/define';
import { describeIssues } from '../common/describe-issues';
import { senderContext, type SenderContext } from './sender';

/** A payload that does not match the protocol (forged or from a stale build). */
export class InvalidMessageError extends Error {
  override name = 'InvalidMessageError';
}

/** A message came from a kind of sender its protocol does not serve (e.g. a content script asking for a full snapshot). */
export class ForbiddenSenderError extends Error {
  override name = 'ForbiddenSenderError';
}

/** Who may speak a protocol: every message of one boundary comes from one kind of sender. */
export interface SenderRule {
  /** Named in the error a refused sender gets. */
  readonly name: string;
  accepts(sender: SenderContext): boolean;
}

export const FROM_CONTENT_SCRIPT: SenderRule = {
  name: 'a content script in a tab',
  accepts: (sender) => sender.kind === 'content-script' && sender.tabId !== undefined,
};

export const FROM_EXTENSION_PAGE: SenderRule = {
  name: 'an extension page',
  accepts: (sender) => sender.kind === 'extension-page',
};

export const FROM_EXTENSION_PAGE_IN_TAB: SenderRule = {
  name: 'an extension page framed in a tab',
  accepts: (sender) => sender.kind === 'extension-page' && sender.tabId !== undefined,
};

/** What a handler gets: the parsed input and who sent it. */
export type Handlers<Definitions extends ProtocolDefinitions> = {
  [Type in keyof Definitions]: (
    input: ParsedInput<Definitions[Type]>,
    sender: SenderContext,
  ) => Promise<z.input<Definitions[Type]['output']>>;
};

/** What the messenger calls: raw, untrusted data and sender. */
export type GuardedHandlers<Definitions extends ProtocolDefinitions> = {
  [Type in keyof Definitions]: (data: unknown, sender: unknown) => Promise<z.input<Definitions[Type]['output']>>;
};

/**
 * Each message's input is parsed here, once, where it enters the background, and its sender is
 * checked against the protocol's rule. A handler only ever sees a parsed input; a bad payload or
 * sender throws one of the two errors above (the sender's `sendMessage` rejects with its name).
 */
export function guardHandlers<Definitions extends ProtocolDefinitions>(
  definitions: Definitions,
  handlers: Handlers<Definitions>,
  options: { rule: SenderRule; extensionOrigin: string },
): GuardedHandlers<Definitions> {
  const guarded: Partial<Record<keyof Definitions, (data: unknown, sender: unknown) => Promise<unknown>>> = {};
  for (const type of Object.keys(definitions) as (keyof Definitions & string)[]) {
    const definition = definitions[type];
    // Indexed by the same key as its definition, so it takes that definition's parsed input.
    const handler = handlers[type] as (input: unknown, sender: SenderContext) => Promise<unknown>;
    if (definition === undefined) continue;
    guarded[type] = async (data, rawSender) => {
      const parsed = definition.input.safeParse(data);
      if (!parsed.success) throw new InvalidMessageError(`Malformed "${type}" message: ${describeIssues(parsed.error)}`);
      const sender = senderContext(rawSender, options.extensionOrigin);
      if (!options.rule.accepts(sender)) throw new ForbiddenSenderError(`"${type}" may only be sent from ${options.rule.name}.`);
      return handler(parsed.data, sender);
    };
  }
  // One entry per definition, built just above from the same keys.
  return guarded as GuardedHandlers<Definitions>;
}

/** Registers guarded handlers on a messenger. Returns a function that unregisters them. */
export function registerHandlers<Definitions extends ProtocolDefinitions>(
  messenger: ExtensionMessenger<ProtocolMapOf<Definitions>>,
  handlers: GuardedHandlers<Definitions>,
): () => void {
  const listen = messenger.onMessage as (
    type: string,
    callback: (message: { data: unknown; sender: unknown }) => Promise<unknown>,
  ) => () => void;
  const removers = Object.entries(handlers).map(
    ([type, handler]: [string, (data: unknown, sender: unknown) => Promise<unknown>]) =>
      listen(type, ({ data, sender }) => handler(data, sender)),
  );
  return () => removers.forEach((remove) => remove());
}
