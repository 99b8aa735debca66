import type { browser } from 'wxt/browser';
import { z } from 'zod';
import { coalesce } from '../../core/coalesce';
import type { LinkRecognizer } from '../../core/links';
import { markFrameAnnotated, reportFrameLinks } from '../../page-world/link-report';
import { frameLinkReportSchema } from '../../protocol/guarded-schemas';
import { FRAME_ANNOTATED_MARK, FRAME_CHANGED_MARK, FRAME_SENTINEL_STOP } from '../../protocol/guarded/frame-signals';
import { MAX_REPORTED_HREF_LENGTH, MAX_REPORTED_HREFS, type FrameLinkReportOptions } from '../../protocol/guarded/link-report';
import { targetOf, type FrameOfTab } from './frame-start';

/** Where a report or a mark runs: the page's own world, or the extension's isolated world. */
export type ReportWorld = 'MAIN' | 'ISOLATED';

/** The frames' reports, as `scripting.executeScript` returns them: unchecked. */
export interface FrameLinkReports {
  /** Runs `reportFrameLinks` in the page world of every frame of the tab. */
  reportAll(tabId: number): Promise<unknown>;
  /** Runs `reportFrameLinks` in the isolated world of one document (where no page script can run). */
  reportIsolated(frame: FrameOfTab): Promise<unknown>;
  /** Runs `markFrameAnnotated` in one document, in the world its report came from. */
  markAnnotated(frame: FrameOfTab, world: ReportWorld): Promise<unknown>;
}

export interface LinkFramesLocatorDeps extends FrameLinkReports {
  /** The recogniser of the configured services as they are now (read once per look). */
  getRecognizer(): Promise<Pick<LinkRecognizer, 'recognizeHref'>>;
  startAnnotator(frame: FrameOfTab): Promise<void>;
  now?: () => number;
}

export interface LinkFramesLocator {
  locate(tabId: number): Promise<void>;
  /** The tab closed: the record of its injections goes. */
  forget(tabId: number): void;
}

/** Least time between two looks at one tab: a page that posts signals without end costs at most this often. */
export const LOCATE_GAP_MS = 100;

/**
 * Most annotator injections per tab per minute (issue #26 item 3): frames that keep asking for one
 * (a report faked in the page's world, the "annotated" mark cleared) cannot keep the background busy.
 */
export const MAX_INJECTIONS_PER_MINUTE = 120;

/** How long a frame the browser names without a document id (Firefox) waits before it may be injected again. */
const REINJECT_FRAME_AFTER_MS = 60_000;

const frameReportsSchema = z.array(
  z.object({
    frameId: z.number().int().nonnegative(),
    documentId: z.string().max(256).optional(),
    result: z.unknown().optional(),
  }),
);

type FrameResult = z.infer<typeof frameReportsSchema>[number];

const reportOptions = (changedMark?: string): FrameLinkReportOptions => ({
  ...(changedMark === undefined ? {} : { changedMark }),
  annotatedMark: FRAME_ANNOTATED_MARK,
  maxHrefs: MAX_REPORTED_HREFS,
  maxHrefLength: MAX_REPORTED_HREF_LENGTH,
});

/** The reports through `browser.scripting`. */
export function scriptingReports(scripting: typeof browser.scripting): FrameLinkReports {
  return {
    reportAll: (tabId) =>
      scripting.executeScript({
        target: { tabId, allFrames: true },
        world: 'MAIN',
        func: reportFrameLinks,
        args: [reportOptions(FRAME_CHANGED_MARK)],
      }),
    reportIsolated: (frame) =>
      scripting.executeScript({ target: targetOf(frame), func: reportFrameLinks, args: [reportOptions()] }),
    markAnnotated: (frame, world) =>
      scripting.executeScript({
        target: targetOf(frame),
        world,
        func: markFrameAnnotated,
        args: [FRAME_ANNOTATED_MARK, FRAME_SENTINEL_STOP],
      }),
  };
}

/**
 * Finds the subframes of a tab that now hold a share link, and runs the annotator in them, when a
 * frame sentinel signals (relayed by the top frame's `locateLinkFrames`). The sentinels run in the
 * page's own world, which costs the browser no isolated world per frame; they cannot message the
 * extension or name their frame, so the background asks every frame of the tab at once, in the page
 * world. The browser runs that only in frames the extension has host access to (the sites it runs
 * on, the configured services), so a frame of any other site is never asked. A frame where the page
 * world could not run (a sandboxed frame without scripts: the browser answers null) is asked again
 * from the isolated world, which only such frames pay for. A report that is not one (the page can
 * alter what runs in its world) starts the annotator, which decides as it does anywhere. Signals
 * during a look cost one more look, not one each.
 */
export function createLinkFramesLocator(deps: LinkFramesLocatorDeps): LinkFramesLocator {
  const now = deps.now ?? (() => Date.now());
  // One entry per tab that ever signalled while this worker lives (a closure each).
  const byTab = new Map<number, () => Promise<void>>();
  /**
   * Per tab, the documents injected (by document id, or frame id where the browser names none) and
   * when: the background's own record, not the page-world mark, which the page can clear.
   */
  const injected = new Map<number, Map<string, number>>();

  /** Records an injection into `frame`, or answers false: done there already, or the tab's minute is used up. */
  function mayInject({ tabId, frameId, documentId }: FrameOfTab): boolean {
    const at = now();
    const tab = injected.get(tabId) ?? new Map<string, number>();
    injected.set(tabId, tab);
    const key = documentId ?? `frame ${frameId}`;
    const last = tab.get(key);
    if (last !== undefined && (documentId !== undefined || at - last < REINJECT_FRAME_AFTER_MS)) return false;
    let recent = 0;
    for (const time of tab.values()) if (at - time < 60_000) recent += 1;
    if (recent >= MAX_INJECTIONS_PER_MINUTE) return false;
    tab.set(key, at);
    return true;
  }

  function shouldStart(result: unknown, recognizer: Pick<LinkRecognizer, 'recognizeHref'>): boolean {
    if (result === false) return false;
    const report = frameLinkReportSchema.safeParse(result);
    if (!report.success || report.data.more || report.data.shadowRoots) return true;
    return report.data.hrefs.some((href) => recognizer.recognizeHref(href) !== null);
  }

  /** The isolated world's report of a frame the page world could not run in (null: it could not either). */
  async function isolatedReport(frame: FrameOfTab): Promise<unknown> {
    const [entry] = frameReportsSchema.parse(await deps.reportIsolated(frame).catch(() => []));
    return entry?.result ?? false;
  }

  /** Starts the annotator in one reported frame if its report asks for it. */
  async function answer(
    tabId: number,
    { frameId, documentId, result }: FrameResult,
    recognizer: Pick<LinkRecognizer, 'recognizeHref'>,
  ): Promise<void> {
    const frame = documentId === undefined ? { tabId, frameId } : { tabId, frameId, documentId };
    const ranInPage = result !== null && result !== undefined;
    if (!shouldStart(ranInPage ? result : await isolatedReport(frame), recognizer) || !mayInject(frame)) return;
    await deps.markAnnotated(frame, ranInPage ? 'MAIN' : 'ISOLATED');
    await deps.startAnnotator(frame);
  }

  async function look(tabId: number): Promise<void> {
    const [reports, recognizer] = await Promise.all([
      deps.reportAll(tabId).then((answer) => frameReportsSchema.parse(answer)),
      deps.getRecognizer(),
    ]);
    // The top frame runs the annotator from the manifest. The frames are answered side by side: each
    // answer is a few round trips to the tab, and a mail client may show many bodies at once.
    await Promise.all(reports.filter(({ frameId }) => frameId !== 0).map((report) => answer(tabId, report, recognizer)));
    await new Promise((resolve) => setTimeout(resolve, LOCATE_GAP_MS));
  }

  return {
    locate(tabId) {
      let locate = byTab.get(tabId);
      if (locate === undefined) {
        locate = coalesce(() => look(tabId));
        byTab.set(tabId, locate);
      }
      return locate();
    },
    forget(tabId) {
      injected.delete(tabId);
    },
  };
}
