/**
 * The import aliases (`@/`, `~/`, …) are declared in the repository's own tsconfig.json, the same as
 * in the one `wxt prepare` generates (.wxt/tsconfig.json, git-ignored), so tools that read the
 * repository without WXT resolve them to the same folders.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** A tsconfig file's `paths`, each target made absolute (they are relative to the file that declares them). */
function aliases(file: string): Record<string, string[]> {
  const read: { config?: unknown; error?: ts.Diagnostic } = ts.readConfigFile(file, (name) => ts.sys.readFile(name));
  expect(read.error, `${file} could not be read`).toBeUndefined();
  const config = read.config as { compilerOptions?: { paths?: Record<string, string[]> } } | undefined;
  const paths = config?.compilerOptions?.paths ?? {};
  return Object.fromEntries(
    Object.entries(paths).map(([alias, targets]) => [alias, targets.map((target) => path.resolve(path.dirname(file), target))]),
  );
}

describe('import aliases', () => {
  it('tsconfig.json declares @/ itself, at the repository root', () => {
    expect(aliases(path.join(root, 'tsconfig.json'))['@/*']).toEqual([path.join(root, '*')]);
  });

  it.runIf(existsSync(path.join(root, '.wxt/tsconfig.json')))('tsconfig.json declares the aliases WXT generates', () => {
    expect(aliases(path.join(root, 'tsconfig.json'))).toEqual(aliases(path.join(root, '.wxt/tsconfig.json')));
  });
});
