import type { z } from 'zod';

/**
 * A message is defined once, as the schema of what its sender passes and the schema of what its
 * receiver answers. The receiving process parses the input (`serveProtocol` in the background), the
 * sending process parses the answer (`protocolClient`, or the content script's own guards).
 */
export interface MessageDefinition<Input extends z.ZodType = z.ZodType, Output extends z.ZodType = z.ZodType> {
  readonly input: Input;
  readonly output: Output;
}

export type ProtocolDefinitions = Readonly<Record<string, MessageDefinition>>;

/** The @webext-core/messaging protocol map, derived from the definitions (what travels on the wire). */
export type ProtocolMapOf<Definitions extends ProtocolDefinitions> = {
  [Type in keyof Definitions]: (data: z.input<Definitions[Type]['input']>) => z.input<Definitions[Type]['output']>;
};

/** What a handler receives: the input after parsing. */
export type ParsedInput<Definition extends MessageDefinition> = z.output<Definition['input']>;

/** What a caller gets back: the answer after parsing. */
export type ParsedOutput<Definition extends MessageDefinition> = z.output<Definition['output']>;
