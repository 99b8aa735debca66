/**
 * The message of a thrown value, for a person to read. Anything may be thrown, not only an Error;
 * an extension API in Firefox may reject with a plain `{ message }` object.
 */
export function messageOf(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  if (typeof thrown === 'object' && thrown !== null && 'message' in thrown && typeof thrown.message === 'string')
    return thrown.message;
  return String(thrown);
}
