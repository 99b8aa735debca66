import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** DESIGN "Budgets": the content script is at most 15 KB gzip (gzip level 9, all content-script files). */
export const CONTENT_SCRIPT_BUDGET_BYTES = 15 * 1024;

export interface BundleSizes {
  contentScriptGzipBytes: number;
  contentScriptFiles: string[];
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
  return {
    contentScriptGzipBytes: contentScripts.reduce((sum, file) => sum + gzip(file), 0),
    contentScriptFiles: contentScripts.map((file) => path.relative(outputDir, file)),
    extensionBytes: files.reduce((sum, file) => sum + statSync(file).size, 0),
    extensionGzipBytes: files.reduce((sum, file) => sum + gzip(file), 0),
  };
}
