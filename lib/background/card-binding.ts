import { z } from 'zod';
import type { SnapshotRequest } from '../core/schemas/results';
import { KeyedMutex, type StorageAreaAdapter } from './snapshot-service/storage-area';

const CARD_KEY_PREFIX = 'cardForTab:';
const bindingSchema = z.object({
  origin: z.string(),
  token: z.string(),
  frameId: z.int(),
  nonce: z.string(),
  fetch: z.boolean(),
  /** The top frame draws this card for the subframe `frameId` (default false: bindings stored before it existed). */
  inTop: z.boolean().default(false),
  claimed: z.boolean(),
  at: z.number(),
});
type StoredBinding = z.infer<typeof bindingSchema>;

/** A tab's card: the frame that opened it, its nonce, and whether the top frame draws it. */
export type OpenCard = Pick<StoredBinding, 'frameId' | 'nonce' | 'inTop'>;

export interface CardBindingDeps {
  /** storage.session: bindings survive a service-worker restart, not a browser restart. */
  area: StorageAreaAdapter;
  /** A binding not claimed within this time is dropped (the card page loads in well under a second). */
  claimWithinMs?: number;
  now?: () => number;
}

/** What the card page learns when it claims its binding: the link, and whether it may fetch it. */
export interface CardClaim {
  request: SnapshotRequest;
  /** false: the card shows the link only if it is cached (hover beyond the tab's allowance). */
  fetch: boolean;
}

export interface CardBindings {
  /**
   * The content script in (`tabId`, `frameId`) opens its card for `request`; the card page made for it
   * claims it with `nonce`. One card per tab: returns the card this one replaces, if any.
   */
  open(
    tabId: number,
    frameId: number,
    binding: { request: SnapshotRequest; nonce: string; fetch: boolean; inTop: boolean },
  ): Promise<OpenCard | null>;
  /** The tab's card now, if any. */
  current(tabId: number): Promise<OpenCard | null>;
  /**
   * The card page of `tabId` claims the link its content script bound to `nonce`, once. Any other
   * card page (one a page framed itself, or a second claim) gets null: it shows nothing and costs
   * no view (security finding 1).
   */
  claim(tabId: number, nonce: string): Promise<CardClaim | null>;
  /** The card of `nonce` closed (a later card of the tab is left alone). Returns the card it forgot, if any. */
  close(tabId: number, nonce?: string): Promise<OpenCard | null>;
}

/** Which link each tab's hover card shows, kept by the background (the card page never trusts its URL). */
export function createCardBindings(deps: CardBindingDeps): CardBindings {
  const now = deps.now ?? (() => Date.now());
  const claimWithinMs = deps.claimWithinMs ?? 60_000;
  const keyOf = (tabId: number) => CARD_KEY_PREFIX + tabId;
  // A tab's binding is read and rewritten by its frames and its card page: one at a time (a claim is once).
  const mutex = new KeyedMutex();
  async function read(tabId: number): Promise<StoredBinding | null> {
    const key = keyOf(tabId);
    const binding = bindingSchema.safeParse((await deps.area.get([key]))[key]);
    return binding.success ? binding.data : null;
  }
  const openCardOf = (binding: StoredBinding | null): OpenCard | null =>
    binding && { frameId: binding.frameId, nonce: binding.nonce, inTop: binding.inTop };
  return {
    open: (tabId, frameId, { request, nonce, fetch, inTop }) =>
      mutex.run(keyOf(tabId), async () => {
        const previous = await read(tabId);
        const binding: StoredBinding = {
          origin: request.origin,
          token: request.token,
          frameId,
          nonce,
          fetch,
          inTop,
          claimed: false,
          at: now(),
        };
        await deps.area.set({ [keyOf(tabId)]: binding });
        return openCardOf(previous);
      }),
    current: (tabId) => mutex.run(keyOf(tabId), async () => openCardOf(await read(tabId))),
    claim: (tabId, nonce) =>
      mutex.run(keyOf(tabId), async () => {
        const binding = await read(tabId);
        if (!binding || binding.claimed || binding.nonce !== nonce || now() - binding.at > claimWithinMs) return null;
        await deps.area.set({ [keyOf(tabId)]: { ...binding, claimed: true } });
        return { request: { origin: binding.origin, token: binding.token }, fetch: binding.fetch };
      }),
    close: (tabId, nonce) =>
      mutex.run(keyOf(tabId), async () => {
        const binding = await read(tabId);
        if (!binding || (nonce !== undefined && binding.nonce !== nonce)) return null;
        await deps.area.remove([keyOf(tabId)]);
        return openCardOf(binding);
      }),
  };
}
