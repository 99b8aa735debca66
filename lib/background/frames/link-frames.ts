import { z } from 'zod';
import { KeyedMutex } from '../common/keyed-mutex';
import type { StorageAreaAdapter } from '../common/storage-area';

const KEY_PREFIX = 'linkFrames:';
/** More frames than any real page shows links in: a page that makes frames without end is cut off. */
const MAX_FRAMES_PER_TAB = 50;
const framesSchema = z.array(z.int().positive()).catch([]);

export interface LinkFrames {
  /** A frame (not the top one) of `tabId` reported share links (`pageLinksChanged`). */
  add(tabId: number, frameId: number): Promise<void>;
  /** The frames of `tabId` that reported share links since its page loaded (reports already received included). */
  list(tabId: number): Promise<number[]>;
  /** The tab closed or its top page navigated: its frames are gone. */
  forget(tabId: number): Promise<void>;
}

/**
 * Which frames of each tab hold share links, so the popup and side panel ask those frames too (the
 * top frame is always asked). Frames without links never report, so they cost nothing here. Kept in
 * storage.session: a restarted service worker still knows them.
 */
export function createLinkFrames(area: StorageAreaAdapter): LinkFrames {
  const keyOf = (tabId: number) => KEY_PREFIX + tabId;
  const read = async (tabId: number) => framesSchema.parse((await area.get([keyOf(tabId)]))[keyOf(tabId)]);
  // Frames of one page report at the same moment: each read-and-write waits for the one before. A
  // list waits too: a popup that opens as a frame reports must see a report the worker already got.
  const mutex = new KeyedMutex();
  return {
    add: (tabId, frameId) =>
      mutex.run(keyOf(tabId), async () => {
        if (frameId === 0) return;
        const frames = await read(tabId);
        if (frames.includes(frameId) || frames.length >= MAX_FRAMES_PER_TAB) return;
        await area.set({ [keyOf(tabId)]: [...frames, frameId] });
      }),
    list: (tabId) => mutex.run(keyOf(tabId), () => read(tabId)),
    forget: (tabId) => mutex.run(keyOf(tabId), () => area.remove([keyOf(tabId)])),
  };
}
