/**
 * Every folder of lib/ states its rule (what it may import, where it runs) in a comment at the top of
 * its `index.ts` (docs/architecture.md, "The boundaries the linter enforces"), and the README lists
 * every one of them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

const libFolders = readdirSync(path.join(root, 'lib'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `lib/${entry.name}`);
/** And the folders below them that docs/architecture.md's table of boundaries gives a rule of their own. */
const tableFolders = [
  ...readFileSync(path.join(root, 'docs/architecture.md'), 'utf8').matchAll(/^\| `(lib\/[\w/-]+?)\/?` /gm),
].map((match) => match[1] ?? '');
const folders = [...new Set([...libFolders, ...tableFolders])];

/** The text of the comment a file opens with (`/** … *\/`, `/* … *\/` or `//` lines), or null. */
export function leadingComment(source: string): string | null {
  const text = source.trimStart();
  const block = /^\/\*([\s\S]*?)\*\//.exec(text);
  const body = block ? block[1] : /^(?:\/\/.*(?:\n|$))+/.exec(text)?.[0].replace(/^\/\/ ?/gm, '');
  if (body === undefined) return null;
  const words = body.replace(/^\s*\*+ ?/gm, '').trim();
  return words === '' ? null : words;
}

describe('each lib/ folder states its rule', () => {
  it('finds the folders, and the check bites on an index without a leading comment', () => {
    expect(libFolders).toEqual(expect.arrayContaining(['lib/core', 'lib/content', 'lib/dom']));
    expect(tableFolders).toEqual(expect.arrayContaining(['lib/core/schemas', 'lib/content/annotator']));
    expect(leadingComment("export { x } from './x';\n/** Too late. */\n")).toBeNull();
    expect(leadingComment('/** */\nexport {};\n')).toBeNull();
    expect(leadingComment('/**\n * lib/x: runs here.\n */\nexport {};\n')).toBe('lib/x: runs here.');
  });

  it.each(folders)('%s/index.ts opens with a comment that states its rule', (folder) => {
    const index = path.join(root, folder, 'index.ts');
    expect(existsSync(index), `${folder} has no index.ts`).toBe(true);
    const comment = leadingComment(readFileSync(index, 'utf8'));
    expect(comment, `${folder}/index.ts does not open with a comment`).not.toBeNull();
    expect(comment).toMatch(new RegExp(`^${folder}\\b`));
  });

  it('the README lists every lib/ folder', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    expect(libFolders.filter((folder) => !readme.includes(`\`${folder}/\``))).toEqual([]);
  });
});
