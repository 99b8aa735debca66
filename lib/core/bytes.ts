/** The parts one after the other in one new array (`total`: their summed length, when the caller kept it). */
export function concatBytes(
  parts: readonly Uint8Array[],
  total = parts.reduce((sum, part) => sum + part.byteLength, 0),
): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
