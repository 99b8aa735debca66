/**
 * Source files stay small enough to read in one sitting: a file in lib/ or components/ longer than
 * about 300 lines says why at its top (a comment containing "Longer than 300 lines:").
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
/** "About 300": a few lines of slack, so that a small edit does not force a split. */
const MAX_LINES = 320;
const REASON = 'Longer than 300 lines:';

const sources = execFileSync('git', ['ls-files', '-z', 'lib', 'components'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((file) => /\.tsx?$/.test(file));

describe('source files', () => {
  it.each(sources)('%s is at most about 300 lines, or says why', (file) => {
    const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
    if (lines.length <= MAX_LINES) return;
    expect(lines.slice(0, 30).join('\n'), `${file} has ${lines.length} lines`).toContain(REASON);
  });
});
