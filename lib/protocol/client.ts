import type { ExtensionMessenger } from '@webext-core/messaging';
import type { z } from 'zod';
import type { ParsedOutput, ProtocolDefinitions, ProtocolMapOf } from './define';

/** One function per message: sends it and parses the answer, so a caller never holds an unchecked shape. */
export type ProtocolClient<Definitions extends ProtocolDefinitions> = {
  [Type in keyof Definitions]: (
    ...input: undefined extends z.input<Definitions[Type]['input']>
      ? [input?: z.input<Definitions[Type]['input']>]
      : [input: z.input<Definitions[Type]['input']>]
  ) => Promise<ParsedOutput<Definitions[Type]>>;
};

/** For extension pages: a typed client over a messenger, parsing every answer with its message's output schema. */
export function protocolClient<Definitions extends ProtocolDefinitions>(
  messenger: ExtensionMessenger<ProtocolMapOf<Definitions>>,
  definitions: Definitions,
): ProtocolClient<Definitions> {
  const send = messenger.sendMessage as (type: string, data: unknown) => Promise<unknown>;
  const client: Record<string, (input?: unknown) => Promise<unknown>> = {};
  for (const type of Object.keys(definitions)) {
    const definition = definitions[type];
    if (definition === undefined) continue;
    client[type] = async (input?: unknown) => definition.output.parse(await send(type, input));
  }
  // Built from the definitions' own keys just above, each entry typed by its definition.
  return client as ProtocolClient<Definitions>;
}
