/**
 * The parts of an HTTP message signature (RFC 9421) that the service's signer (server/signing) and
 * every verifier (verify.ts) share: a response as kept, and its signature base. One builder for both,
 * so the two cannot drift; the tests hold it to `http-message-signatures`.
 */
import { serializeInnerList, type InnerList } from 'structured-headers';

/** What is read of a response's headers: `Headers` fits, and so does `headerLookup` over a plain record. */
export interface HeaderSource {
  /** The field's value (several lines joined with `, `), or null when absent; names are lower case. */
  get(name: string): string | null;
}

/** A received answer as kept: its status, header values and exact body bytes. */
export interface SignedResponse {
  status: number;
  headers: HeaderSource;
  body: Uint8Array;
}

/** A header source over a record of field values, whatever the case of its names. */
export function headerLookup(record: Readonly<Record<string, string | undefined>>): HeaderSource {
  const lower = new Map(Object.entries(record).map(([name, value]) => [name.toLowerCase(), value]));
  return { get: (name) => lower.get(name.toLowerCase()) ?? null };
}

/**
 * The signature base (RFC 9421 section 2.5) of a response over `input` (the covered components and
 * the signature parameters), or the name of a covered header the response lacks. For `@status` and
 * plain header fields, which is all the snapshot signature covers, it is one line per component and
 * the serialised parameters. The server signs this base and the verifier checks it: one builder, so
 * the two cannot drift (the tests hold both to `http-message-signatures`).
 */
export function signatureBase(status: number, headers: HeaderSource, input: InnerList): string | { missing: string } {
  const lines: string[] = [];
  for (const [item] of input[0]) {
    // readInput admits only string components; a base of anything else is never signed or checked.
    if (typeof item !== 'string') return { missing: '(a component that is not a string)' };
    const name = item;
    let value: string;
    if (name === '@status') {
      value = String(status);
    } else {
      const field = headers.get(name);
      if (field === null) return { missing: name };
      // RFC 9421 section 2.1: leading and trailing whitespace trimmed, obsolete line folding replaced.
      value = field.trim().replace(/\r?\n[ \t]*/g, ' ');
    }
    lines.push(`"${name}": ${value}`);
  }
  lines.push(`"@signature-params": ${serializeInnerList(input)}`);
  return lines.join('\n');
}
