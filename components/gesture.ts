/**
 * Calls `ask` at once, inside the current user gesture (browsers show a permission prompt only
 * during one, and any await before the call would lose it), and turns a synchronous throw into a
 * rejection so that callers handle both failures in one place.
 */
export function askWithinGesture<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return ask();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
