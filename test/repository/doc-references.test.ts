/**
 * The docs name files and tests as they are: every repository path written in backticks in a tracked
 * Markdown file exists, and every test quoted as `file › "name"` is a test of that file. A file that
 * moves or a test that is renamed fails here until the docs say so.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const markdown = execFileSync('git', ['ls-files', '-z', '*.md'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file !== '');

const SOURCE_ROOTS = ['lib', 'components', 'entrypoints', 'server', 'scripts', 'test', 'docs', 'public'];
const PATH_IN_BACKTICKS = new RegExp(`\`((?:${SOURCE_ROOTS.join('|')})/[^\\s\`]*)\``, 'g');
/** Globs and placeholders (`test/lib/…`, `{en,fr}`, `*.ts`) name no one file. */
const PATTERN = /[*{}<>…]|\.\.\./;
const RESOLVED_SUFFIXES = ['', '.ts', '.tsx', '/index.ts'];

/** The repository paths a Markdown text names that do not exist. */
export function missingPaths(text: string): string[] {
  const missing = new Set<string>();
  for (const match of text.matchAll(PATH_IN_BACKTICKS)) {
    const written = match[1] ?? '';
    if (PATTERN.test(written)) continue;
    const file = written.replace(/[:#].*$/, '').replace(/\/$/, '');
    if (!RESOLVED_SUFFIXES.some((suffix) => existsSync(path.join(root, file + suffix)))) missing.add(written);
  }
  return [...missing];
}

/** `test/….test.ts` › "name" (or `file.test.ts` › "name" after a full path in the same cell). */
const QUOTED_TEST = /`((?:test\/)?[\w./-]+\.(?:test|spec)\.tsx?)`\s*›\s*((?:"[^"]+"(?:,\s*)?)+)/g;

/** Quoted test names that no test file of that name contains. */
export function missingTests(text: string, testFiles: readonly string[]): string[] {
  const missing: string[] = [];
  for (const match of text.matchAll(QUOTED_TEST)) {
    const written = match[1] ?? '';
    const candidates = written.startsWith('test/') ? [written] : testFiles.filter((file) => file.endsWith(`/${written}`));
    const sources = candidates
      .filter((file) => existsSync(path.join(root, file)))
      .map((file) => readFileSync(path.join(root, file), 'utf8'));
    for (const [, name] of (match[2] ?? '').matchAll(/"([^"]+)"/g)) {
      // A name may be shortened with a leading or trailing … (a template's prefix, a long name's tail).
      const stem = (name ?? '').replace(/\s+/g, ' ').replace(/^…|…$/g, '');
      if (!sources.some((source) => source.includes(stem))) missing.push(`${written} › "${name}"`);
    }
  }
  return missing;
}

const testFiles = execFileSync('git', ['ls-files', '-z', 'test'], { cwd: root, encoding: 'utf8' }).split('\0');

/** Source files, whose comments name other files (`lib/…/x.ts says why`). */
const sources = execFileSync('git', ['ls-files', '-z', '*.ts', '*.tsx', '*.js', '*.mjs', '*.sh'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file !== '');
/** A repository path in a comment: written without backticks, so taken up to where the name ends. */
const PATH_IN_COMMENT = new RegExp(`(?<![\\w./@-])((?:${SOURCE_ROOTS.join('|')})/[\\w./-]*\\w)`, 'g');

/**
 * Whether git ignores the path (an output folder a comment may name: it exists once a run made it).
 * Asked as a file and as a folder: a folder rule (`test/artifacts/`) matches a missing path only so.
 */
function ignored(file: string): boolean {
  return [file, `${file}/`].some((asked) => {
    try {
      execFileSync('git', ['check-ignore', '-q', '--no-index', asked], { cwd: root });
      return true;
    } catch {
      return false;
    }
  });
}

/** The repository paths the comments of a source text name that do not exist (and are not outputs git ignores). */
export function missingCommentPaths(text: string): string[] {
  const missing = new Set<string>();
  for (const line of text.split('\n')) {
    const comment = /^\s*(\/\/|\*|\/\*|#)/.test(line) ? line : (/\/\/ .*$/.exec(line)?.[0] ?? '');
    for (const match of comment.matchAll(PATH_IN_COMMENT)) {
      const written = match[1] ?? '';
      if (PATTERN.test(written)) continue;
      if (!RESOLVED_SUFFIXES.some((suffix) => existsSync(path.join(root, written + suffix))) && !ignored(written)) {
        missing.add(written);
      }
    }
  }
  return [...missing];
}

describe('docs name what exists', () => {
  it('the checks bite: a moved file and a renamed test are caught', () => {
    expect(missingPaths('see `lib/content/annotator/annotator.ts` and `lib/content/gone.ts`')).toEqual(['lib/content/gone.ts']);
    expect(missingPaths('globs like `test/lib/**` and `lib/core/i18n/{en,fr}/options.ts` name no one file')).toEqual([]);
    expect(missingTests('`test/lib/core/csv.test.ts` › "no such test"', testFiles)).toEqual([
      'test/lib/core/csv.test.ts › "no such test"',
    ]);
  });

  it.each(markdown)('%s: every repository path in backticks exists', (file) => {
    expect(missingPaths(readFileSync(path.join(root, file), 'utf8'))).toEqual([]);
  });

  it('the comment check bites: a comment naming a file that moved is caught, code is not read', () => {
    expect(
      // Built so that this file's own comments do not name the missing file.
      missingCommentPaths(
        ['/', '/ lib/content/', 'gone.ts says why\n * see lib/core/token.ts\nconst x = "lib/not/a/comment.ts";'].join(''),
      ),
    ).toEqual(['lib/content/gone.ts']);
  });

  it.each(sources)('%s: every repository path its comments name exists', (file) => {
    expect(missingCommentPaths(readFileSync(path.join(root, file), 'utf8'))).toEqual([]);
  });

  it.each(markdown)('%s: every quoted test is in its file', (file) => {
    expect(missingTests(readFileSync(path.join(root, file), 'utf8'), testFiles)).toEqual([]);
  });
});
