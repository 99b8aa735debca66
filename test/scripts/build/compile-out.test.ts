import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as installedZod from 'zod';
import { applyPatches, assertNoUnsafeCode, compileOut, PATCHES } from '@/scripts/build/compile-out';
import { findUnsafeCode } from '@/scripts/build/unsafe-code';

const root = path.resolve(import.meta.dirname, '../../..');
const modules = [...new Set(PATCHES.map((patch) => patch.module))];
/** The installed file a patch's module path names. */
const installed = (module: string) => path.join(root, module);
const read = (module: string) => readFileSync(installed(module), 'utf8');

describe('the patches match the installed dependencies', () => {
  it('targets zod’s JIT, react-dom’s production client and Preact (the card page)', () => {
    expect(modules).toEqual([
      '/node_modules/zod/v4/core/util.js',
      '/node_modules/zod/v4/core/doc.js',
      '/node_modules/react-dom/cjs/react-dom-client.production.js',
      '/node_modules/preact/dist/preact.module.js',
    ]);
  });

  it('Preact: its innerHTML assignments are gone, dangerouslySetInnerHTML throws, clearing a former one still empties the element', () => {
    const module = '/node_modules/preact/dist/preact.module.js';
    const original = read(module);
    const patched = applyPatches(original, installed(module)) ?? '';
    expect(original.match(/\.innerHTML\s*=(?!=)/g)).toHaveLength(2);
    expect(patched.match(/\.innerHTML\s*=(?!=)/g)).toBeNull();
    expect(patched).toContain('dangerouslySetInnerHTML is compiled out');
    expect(patched).toContain('u.textContent=""');
  });

  it.each(modules)('%s: unpatched it holds code store review rejects; patched, none of it', (module) => {
    const original = read(module);
    expect(findUnsafeCode(original).length).toBeGreaterThan(0);
    const patched = applyPatches(original, installed(module));
    expect(patched).not.toBeNull();
    expect(findUnsafeCode(patched ?? '')).toEqual([]);
  });

  it('react-dom: every innerHTML assignment is gone and each compiled-out path throws a clear error', () => {
    const module = '/node_modules/react-dom/cjs/react-dom-client.production.js';
    const original = read(module);
    const patched = applyPatches(original, installed(module)) ?? '';
    expect(original.match(/\.innerHTML\s*=/g)).toHaveLength(3);
    expect(patched.match(/\.innerHTML\s*=/g)).toBeNull();
    expect(patched.match(/dangerouslySetInnerHTML is compiled out/g)).toHaveLength(2);
    expect(patched).toContain('Rendering a <script> element is compiled out');
    // Everything else is untouched: the patched file differs only where the patches say.
    const restored = PATCHES.filter((patch) => patch.module === module).reduce(
      (text, patch) => text.replaceAll(patch.replace, patch.find),
      patched,
    );
    expect(restored).toBe(original);
  });
});

describe('applyPatches', () => {
  const util = '/node_modules/zod/v4/core/util.js';

  it('leaves other modules alone', () => {
    expect(applyPatches('const F = Function;', '/project/node_modules/other/util.js')).toBeNull();
    expect(applyPatches('new Function("")', '/project/lib/core/labels.ts')).toBeNull();
  });

  it('finds its modules under any layout, with a query or Windows separators', () => {
    const code = read(util);
    for (const id of [
      `/x/node_modules/.pnpm/zod@4.6.7/node_modules/zod/v4/core/util.js`,
      `${installed(util)}?v=1a2b3c`,
      'C:\\project\\node_modules\\zod\\v4\\core\\util.js',
    ]) {
      expect(applyPatches(code, id), id).not.toBeNull();
    }
  });

  it('throws, naming the module, when the dependency’s code changed (the patched text is missing)', () => {
    const changed = read(util).replace('new F("")', 'new F("", "")');
    expect(() => applyPatches(changed, installed(util))).toThrow(
      /zod JIT probe \(allowsEval\): expected the patched text 1 time\(s\) in .*zod\/v4\/core\/util\.js, found it 0 time\(s\)\. The dependency changed/,
    );
  });

  it('throws when the patched text occurs more often than the patch expects', () => {
    const patch = PATCHES.find((candidate) => candidate.module === util);
    if (patch === undefined) throw new Error('no patch for zod util.js');
    expect(() => applyPatches(`${patch.find}\n${patch.find}`, installed(util))).toThrow(/found it 2 time\(s\)/);
  });
});

describe('assertNoUnsafeCode and the plugin', () => {
  const chunk = (fileName: string, code: string) => ({ type: 'chunk' as const, fileName, code });

  it('passes clean chunks and ignores assets', () => {
    expect(() =>
      assertNoUnsafeCode({
        'background.js': chunk('background.js', 'const a = typeof b === "function";'),
        'icon.svg': { type: 'asset', fileName: 'icon.svg' },
      }),
    ).not.toThrow();
  });

  it('throws, naming the file, the rule and the code, when a chunk holds rejected code', () => {
    expect(() => assertNoUnsafeCode({ 'chunks/x.js': chunk('chunks/x.js', 'let e=Function,t=1;e(`return 1`)') })).toThrow(
      /chunks\/x\.js: the Function constructor: …let e=Function,t=1/,
    );
  });

  it('checks the output only when asked (production builds)', () => {
    const bundle = { 'a.js': chunk('a.js', 'el.innerHTML = html;') };
    expect(() => compileOut({ checkOutput: true }).generateBundle(undefined, bundle)).toThrow(/innerHTML/);
    expect(() => compileOut({ checkOutput: false }).generateBundle(undefined, bundle)).not.toThrow();
  });

  it('transforms only the targeted modules', () => {
    const plugin = compileOut({ checkOutput: true });
    expect(plugin.transform('export const a = 1;', '/p/lib/a.ts')).toBeNull();
    const doc = '/node_modules/zod/v4/core/doc.js';
    expect(plugin.transform(read(doc), installed(doc))?.code).toContain("zod's JIT is compiled out");
  });
});

/**
 * Behaviour: zod with its JIT compiled out parses exactly like the installed zod. In Node the
 * installed zod uses its JIT (eval is allowed here), so this compares the two paths; in the
 * extension the JIT never ran (CSP), so the bundle keeps the path it always took.
 */
describe('zod with the JIT compiled out', () => {
  type Zod = typeof installedZod;
  let directory = '';
  let patchedZod: Zod;

  const isZod = (value: unknown): value is Zod =>
    typeof value === 'object' &&
    value !== null &&
    'object' in value &&
    typeof value.object === 'function' &&
    'core' in value &&
    typeof value.core === 'object';

  beforeAll(async () => {
    // A private copy of the installed zod (the files the root entry imports), with the patches applied.
    directory = mkdtempSync(path.join(os.tmpdir(), 'compile-out-zod-'));
    const zodRoot = path.join(root, 'node_modules', 'zod');
    for (const entry of ['package.json', 'index.js', 'v4']) {
      cpSync(path.join(zodRoot, entry), path.join(directory, entry), { recursive: true });
    }
    for (const module of modules.filter((name) => name.includes('/zod/'))) {
      const file = path.join(directory, module.replace('/node_modules/zod/', ''));
      writeFileSync(file, applyPatches(readFileSync(file, 'utf8'), module) ?? '');
    }
    const loaded: unknown = await import(pathToFileURL(path.join(directory, 'index.js')).href);
    if (!isZod(loaded)) throw new Error('the patched copy of zod did not load as zod');
    patchedZod = loaded;
  });

  afterAll(() => {
    if (directory !== '') rmSync(directory, { recursive: true, force: true });
  });

  /** A schema shaped like the snapshot envelope: nested objects, enums, nullables, arrays, bounds. */
  const schemaOf = (z: Zod) =>
    z.object({
      company: z.object({ name: z.string().min(1) }),
      scores: z.object({ readiness: z.int().min(0).max(100), band: z.enum(['low', 'medium', 'high']) }),
      licensing: z.object({ regulator: z.string().nullable(), others: z.array(z.string()) }),
      at: z.iso.datetime({ offset: true }),
      link: z.url(),
      gaps: z.array(z.object({ title: z.string().min(1), severity: z.enum(['low', 'high']) })).max(3),
      note: z.string().optional(),
    });

  const valid = {
    company: { name: 'Acme Pay' },
    scores: { readiness: 72, band: 'medium' },
    licensing: { regulator: 'CBN', others: ['SEC'] },
    at: '2026-11-22T08:00:00.000Z',
    link: 'https://service.example/share/abc',
    gaps: [{ title: 'AML policy', severity: 'high' }],
  };

  it.each([
    ['valid', valid],
    ['valid, with unknown keys (stripped)', { ...valid, extra: 1, company: { name: 'Acme Pay', extra: true } }],
    ['wrong types', { ...valid, scores: { readiness: '72', band: 'unknown' } }],
    ['missing sections', { company: { name: '' } }],
    ['nested errors', { ...valid, gaps: [{ title: '', severity: 'x' }, 1, 2, 3], at: 'yesterday', link: 'nope' }],
    ['not an object', 'snapshot'],
    ['null', null],
  ])('%s: same result as the installed zod', (_name, input) => {
    expect(installedZod.core.util.allowsEval.value, 'the installed zod compiles (Node allows eval)').toBe(true);
    expect(patchedZod.core.util.allowsEval.value, 'the patched zod never tries').toBe(false);
    const expected = schemaOf(installedZod).safeParse(input);
    const actual = schemaOf(patchedZod).safeParse(input);
    expect(actual.success).toBe(expected.success);
    expect(actual.data).toEqual(expected.data);
    expect(actual.error?.issues).toEqual(expected.error?.issues);
  });

  it('Doc.compile, which only the JIT calls, throws a clear error', async () => {
    const loaded: unknown = await import(pathToFileURL(path.join(directory, 'v4/core/doc.js')).href);
    const Doc = typeof loaded === 'object' && loaded !== null && 'Doc' in loaded ? loaded.Doc : undefined;
    if (typeof Doc !== 'function') throw new Error('zod/v4/core/doc.js exports no Doc class');
    const doc: unknown = Reflect.construct(Doc, [['input']]);
    const compile = typeof doc === 'object' && doc !== null && 'compile' in doc ? doc.compile : undefined;
    if (typeof compile !== 'function') throw new Error('Doc has no compile method');
    expect(() => {
      Reflect.apply(compile, doc, []);
    }).toThrow(/zod's JIT is compiled out of the Compliance Lens extension bundle/);
  });
});
