import type { ScriptPublicPath } from 'wxt/utils/inject-script';
import { ANNOTATOR_SCRIPT } from '../core/content-scripts';

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
 * Runs the annotator in the frame whose probe found a link (lib/content/frame-probe.ts). Aimed at
 * the asking document where the browser names it: if the frame has meanwhile moved to another page,
 * that page's own probe asks again.
 */
export async function startAnnotatorInFrame(scripting: ScriptInjector, frame: FrameOfTab): Promise<void> {
  const target =
    frame.documentId === undefined
      ? { tabId: frame.tabId, frameIds: [frame.frameId] }
      : { tabId: frame.tabId, documentIds: [frame.documentId] };
  await scripting.executeScript({ target, files: [`/${ANNOTATOR_SCRIPT}`] });
}
