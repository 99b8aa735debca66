/**
 * The repository stands on its own: a clone with nothing beside it must build, test and read
 * whole. Every relative path written in a tracked file (imports, file reads, Markdown links,
 * scripts) must stay inside the repository root, and no tracked file may name an absolute path on
 * a developer's machine.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const BINARY = /\.(png|jpe?g|gif|ico|webp|zip|woff2?)$/i;

const trackedFiles = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file !== '' && !BINARY.test(file) && file !== 'package-lock.json');

/** `../x`, `../../x`: a relative path that climbs, wherever it is written (quotes, links, shell). */
const CLIMBING_PATH = /(?<![\w./-])(?:\.\.\/)+[^\s'"`)\]},;]*/g;
/** Absolute paths of the machines this project was written on. */
const MACHINE_PATH = /(?<![\w.-])\/(?:work|root|home)\/[\w.-]+/g;

/** Template parts (`${x}`, globs) name no one file: only their place is checked, not their existence. */
const PATTERN_PART = /[$*{<]/;
/** Module specifiers leave out what the resolver adds. */
const RESOLVED_SUFFIXES = ['', '.ts', '.tsx', '/index.ts'];

const exists = (target: string) => RESOLVED_SUFFIXES.some((suffix) => existsSync(target + suffix));

/**
 * The paths in `text` (of tracked `file`) that lead outside the repository, and in documents those
 * that lead to nothing in it (in code, a climbing string can be test data such as `../../etc`).
 */
function escapes(file: string, text: string): string[] {
  const found: string[] = [];
  const directory = path.dirname(path.join(root, file));
  const mustExist = file.endsWith('.md');
  for (const match of text.matchAll(CLIMBING_PATH)) {
    const written = match[0].replace(/[.:]+$/, '').replace(/#.*$/, '');
    const target = path.resolve(directory, written);
    const inside = target === root || target.startsWith(root + path.sep);
    if (!inside || (mustExist && !PATTERN_PART.test(written) && !exists(target))) found.push(match[0]);
  }
  for (const match of text.matchAll(MACHINE_PATH)) found.push(match[0]);
  return found;
}

describe('the repository stands on its own', () => {
  it('finds the tracked files', () => {
    expect(trackedFiles).toContain('package.json');
    expect(trackedFiles.length).toBeGreaterThan(100);
  });

  it('the check bites: a path that climbs out of the root or to nothing, and a machine path, are caught', () => {
    expect(escapes('test/unit/a.test.ts', "readFileSync('../../../../shared/fixtures/x.json')")).toEqual([
      '../../../../shared/fixtures/x.json',
    ]);
    expect(escapes('README.md', 'see [the spec](../shared/spec/api.md)')).toEqual(['../shared/spec/api.md']);
    expect(escapes('docs/a.md', 'see /work/shared/DESIGN.md')).toEqual(['/work/shared']);
    expect(escapes('docs/a.md', 'see [the spec](../shared/spec/api.md)')).toEqual(['../shared/spec/api.md']);
    expect(escapes('test/lib/a.test.ts', "import x from '../../lib/core/labels.ts'")).toEqual([]);
  });

  // This file holds the examples above on purpose.
  const checked = trackedFiles.filter((file) => file !== 'test/repository/standalone.test.ts');

  it.each(checked)('%s reads and links nothing outside the repository', (file) => {
    expect(escapes(file, readFileSync(path.join(root, file), 'utf8'))).toEqual([]);
  });
});
