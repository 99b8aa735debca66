/**
 * What the background's page-world report (lib/page-world/link-report.ts, run in every frame of a
 * tab by `scripting.executeScript`) is asked and gives back. It runs where the page runs, so the
 * background parses every answer with `frameLinkReportSchema` (lib/protocol/guarded-schemas.ts).
 */

/** Most links a frame's report lists (more: the annotator is started and decides). */
export const MAX_REPORTED_HREFS = 2000;

/** Longest link a frame's report lists (longer ones cannot be share links). */
export const MAX_REPORTED_HREF_LENGTH = 4096;

/** What `reportFrameLinks` gives back from one frame, before the background parses it. */
export interface FrameLinkReport {
  /** Resolved `href`s of the frame's links (light DOM), up to `maxHrefs`, each at most `maxHrefLength`. */
  hrefs: string[];
  /** More links than were reported. */
  more: boolean;
  /** The frame holds an open shadow root (its links are the annotator's to find). */
  shadowRoots: boolean;
}

export interface FrameLinkReportOptions {
  /**
   * FRAME_CHANGED_MARK: only a document marked with it is reported, and the mark is cleared. Absent:
   * any subframe (the isolated world of a frame where no sentinel can run).
   */
  changedMark?: string;
  /** FRAME_ANNOTATED_MARK: a document marked with it is skipped. */
  annotatedMark: string;
  maxHrefs: number;
  maxHrefLength: number;
}
