import type { ScriptPublicPath } from 'wxt/utils/inject-script';
import { ANNOTATOR_SCRIPT, CARD_PRESENTER_SCRIPT } from '../../extension/content-scripts';

/** One document of a tab: its frame, and (Chrome) the document itself. */
export interface FrameOfTab {
  tabId: number;
  frameId: number;
  documentId?: string;
}

/** What this module needs of `browser.scripting`. */
export interface ScriptInjector {
  executeScript(injection: {
    target: { tabId: number; frameIds: number[] } | { tabId: number; documentIds: string[] };
    files: ScriptPublicPath[];
  }): Promise<unknown>;
}

/**
 * Runs the annotator in a subframe that holds a share link (link-frames-locator.ts). Aimed at the
 * reported document where the browser names it: if the frame has meanwhile moved to another page,
 * that page's own sentinel signals again.
 */
export async function startAnnotatorInFrame(scripting: ScriptInjector, frame: FrameOfTab): Promise<void> {
  await scripting.executeScript({ target: targetOf(frame), files: [`/${ANNOTATOR_SCRIPT}`] });
}

/**
 * Runs the card presenter in the document whose annotator asked for it (the first time a reader's
 * pointer came to one of its links): only what every page needs is in the annotator.
 */
export async function startCardPresenterInFrame(scripting: ScriptInjector, frame: FrameOfTab): Promise<void> {
  await scripting.executeScript({ target: targetOf(frame), files: [`/${CARD_PRESENTER_SCRIPT}`] });
}

/** The injection target of one document (by its id where the browser gives one, else its frame). */
export function targetOf(frame: FrameOfTab): { tabId: number; frameIds: number[] } | { tabId: number; documentIds: string[] } {
  return frame.documentId === undefined
    ? { tabId: frame.tabId, frameIds: [frame.frameId] }
    : { tabId: frame.tabId, documentIds: [frame.documentId] };
}
