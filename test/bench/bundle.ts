import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import {
  ANNOTATOR_SCRIPT,
  CARD_PRESENTER_SCRIPT,
  FRAME_RELAY_SCRIPT,
  FRAME_SENTINEL_SCRIPT,
} from '../../lib/extension/content-scripts';

/**
 * DESIGN "Budgets" (gzip level 9): the annotator is at most 15 KB and keeps at least 0.5 KB of that
 * free for what comes next (1 KB until the share-shaped guess of issue #32, which allowed 0.5 KB); the top frame's relay, beside it on every matched page, has 6 KB
 * (docs/design-changes.md, "The frame relay's budget is 6 KB").
 */
export const CONTENT_SCRIPT_BUDGET_BYTES = 15 * 1024;
export const ANNOTATOR_HEADROOM_BYTES = 512;
export const FRAME_RELAY_BUDGET_BYTES = 6 * 1024;
/** The card presenter, loaded into a frame the first time a pointer comes to a link there (issue #32). */
export const CARD_PRESENTER_BUDGET_BYTES = 6 * 1024;

export interface BundleSizes {
  /** The annotator: the top frame of every matched page, and each frame that holds a share link. */
  annotatorGzipBytes: number | null;
  /** The top frame's relay of the sentinels' signals and host of the subframes' cards. */
  frameRelayGzipBytes: number | null;
  /** The page-world script of every subframe. */
  frameSentinelGzipBytes: number | null;
  /** The card presenter, in a frame where a pointer came to a link. */
  cardPresenterGzipBytes: number | null;
  extensionBytes: number;
  extensionGzipBytes: number;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/** Sizes of a built extension folder (e.g. .output/chrome-mv3). */
export function measureBundle(outputDir: string): BundleSizes {
  const files = filesUnder(outputDir);
  const gzip = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
  const gzipIfPresent = (name: string) => (existsSync(path.join(outputDir, name)) ? gzip(path.join(outputDir, name)) : null);
  return {
    annotatorGzipBytes: gzipIfPresent(ANNOTATOR_SCRIPT),
    frameRelayGzipBytes: gzipIfPresent(FRAME_RELAY_SCRIPT),
    frameSentinelGzipBytes: gzipIfPresent(FRAME_SENTINEL_SCRIPT),
    cardPresenterGzipBytes: gzipIfPresent(CARD_PRESENTER_SCRIPT),
    extensionBytes: files.reduce((sum, file) => sum + statSync(file).size, 0),
    extensionGzipBytes: files.reduce((sum, file) => sum + gzip(file), 0),
  };
}

/** The store packages `npm run zip` writes into .output (WXT's default names: `{name}-{version}-{browser}.zip`). */
export interface StorePackages {
  chrome: string;
  firefox: string;
  /** The sources zip WXT makes for Firefox (AMO reviewers rebuild from it). */
  sources: string;
}

const PackageJson = z.looseObject({ name: z.string(), version: z.string() });

export function storePackagePaths(repoRoot: string): StorePackages {
  const { name, version } = PackageJson.parse(JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')));
  const zip = (suffix: string) => path.join(repoRoot, '.output', `${name}-${version}-${suffix}.zip`);
  return { chrome: zip('chrome'), firefox: zip('firefox'), sources: zip('sources') };
}

/** Sizes in bytes of the store packages; `null` for one that does not exist. */
export function measureStorePackages(repoRoot: string): Record<keyof StorePackages, number | null> {
  const paths = storePackagePaths(repoRoot);
  const size = (file: string) => (existsSync(file) ? statSync(file).size : null);
  return { chrome: size(paths.chrome), firefox: size(paths.firefox), sources: size(paths.sources) };
}
