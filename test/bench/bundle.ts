import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { FRAME_RELAY_SCRIPT, FRAME_SENTINEL_SCRIPT } from '../../lib/extension/content-scripts';

/** DESIGN "Budgets": the content script is at most 15 KB gzip (gzip level 9, all content-script files). */
export const CONTENT_SCRIPT_BUDGET_BYTES = 15 * 1024;

export interface BundleSizes {
  contentScriptGzipBytes: number;
  contentScriptFiles: string[];
  /** The isolated script of every frame with an http(s) address (the annotator follows where share links appear). */
  frameRelayGzipBytes: number | null;
  /** The page-world script of every `about:blank`/`srcdoc` subframe. */
  frameSentinelGzipBytes: number | null;
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
  const contentScripts = files.filter((file) => file.includes(`${path.sep}content-scripts${path.sep}`) && file.endsWith('.js'));
  const gzip = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
  const gzipIfPresent = (name: string) => (existsSync(path.join(outputDir, name)) ? gzip(path.join(outputDir, name)) : null);
  return {
    contentScriptGzipBytes: contentScripts.reduce((sum, file) => sum + gzip(file), 0),
    contentScriptFiles: contentScripts.map((file) => path.relative(outputDir, file)),
    frameRelayGzipBytes: gzipIfPresent(FRAME_RELAY_SCRIPT),
    frameSentinelGzipBytes: gzipIfPresent(FRAME_SENTINEL_SCRIPT),
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
