/**
 * Compiles out of the extension bundle the dependency code that store review rejects and that this
 * extension never runs (see docs/toolchain.md, "Store review"):
 *
 * - zod's JIT. zod v4 probes for `new Function` (`allowsEval` in `zod/v4/core/util.js`) and, when
 *   it works, compiles object parsers into generated code (`Doc.compile` in `zod/v4/core/doc.js`).
 *   Extension pages and service workers run under a CSP without `unsafe-eval`, so the probe always
 *   failed there and zod always took its interpreted path: the probe now answers `false` without
 *   trying, and `Doc.compile` throws. Same parsing, same results, no `Function` in the bundle.
 * - Preact's `dangerouslySetInnerHTML` (the card page renders the components with Preact; see
 *   wxt.config.ts): setting it throws a clear error, and clearing a former one empties the element
 *   with `textContent` instead of `innerHTML` (the same for an element that had no children of its own).
 * - react-dom's HTML-from-a-string paths, which this project never uses: `dangerouslySetInnerHTML`
 *   (both places react-dom assigns it to `innerHTML`) now throws a clear error, and so does creating
 *   a `<script>` element (react-dom does that through `innerHTML` so the script stays inert; an
 *   extension page cannot run inline scripts anyway). ESLint forbids `dangerouslySetInnerHTML`, so
 *   the throw is a backstop, not a behaviour anyone meets.
 *
 * Each patch names the exact published text it replaces and how often it occurs. When a dependency
 * update changes that text, the build throws instead of shipping the old code: re-read the new
 * code, then update the patch. As a second net, a production build fails when any emitted script
 * still matches scripts/build/unsafe-code.ts (for instance because the code moved to another module).
 */
import { findUnsafeCode } from './unsafe-code';

export interface Patch {
  /** The module, as the end of its resolved path (any package manager layout ends like this). */
  module: string;
  /** Why the code goes, for the error message. */
  what: string;
  /** Exact text in the published module. */
  find: string;
  /** How many times `find` occurs there. */
  occurrences: number;
  replace: string;
}

const lines = (...text: string[]) => text.join('\n');

const compiledOut = (what: string) =>
  `${what} is compiled out of the Compliance Lens extension bundle (scripts/build/compile-out.ts)`;

export const PATCHES: readonly Patch[] = [
  {
    module: '/node_modules/zod/v4/core/util.js',
    what: 'zod JIT probe (allowsEval)',
    find: lines(
      '    try {',
      '        const F = Function;',
      '        new F("");',
      '        return true;',
      '    }',
      '    catch (_) {',
      '        return false;',
      '    }',
    ),
    occurrences: 1,
    replace: lines(
      '    // scripts/build/compile-out.ts: the extension CSP forbids code from strings, so this probe could only fail;',
      '    // zod runs its interpreted parsers.',
      '    return false;',
    ),
  },
  {
    module: '/node_modules/zod/v4/core/doc.js',
    what: 'zod JIT compiler (Doc.compile)',
    find: lines(
      '    compile() {',
      '        const F = Function;',
      '        const content = this?.content ?? [``];',
      '        const factory = new F(...Object.keys(this.closed), `return function (${this.args.join(", ")}) {\\n${content.join("\\n")}\\n};`);',
      '        return factory(...Object.values(this.closed));',
      '    }',
    ),
    occurrences: 1,
    replace: lines(
      '    compile() {',
      `        throw new Error(${JSON.stringify(`${compiledOut("zod's JIT")}: allowsEval is false here`)});`,
      '    }',
    ),
  },
  {
    module: '/node_modules/react-dom/cjs/react-dom-client.production.js',
    what: 'react-dom dangerouslySetInnerHTML (setProp and setPropOnCustomElement)',
    find: lines(
      '    case "dangerouslySetInnerHTML":',
      '      if (null != value) {',
      '        if ("object" !== typeof value || !("__html" in value))',
      '          throw Error(formatProdErrorMessage(61));',
      '        key = value.__html;',
      '        if (null != key) {',
      '          if (null != props.children) throw Error(formatProdErrorMessage(60));',
      '          (null != prevValue ? prevValue.__html : void 0) !== key &&',
      '            (domElement.innerHTML = key);',
      '        }',
      '      }',
      '      break;',
    ),
    occurrences: 2,
    replace: lines(
      '    case "dangerouslySetInnerHTML":',
      '      if (null != value)',
      `        throw Error(${JSON.stringify(`${compiledOut('dangerouslySetInnerHTML')}: render text, not HTML`)});`,
      '      break;',
    ),
  },
  {
    module: '/node_modules/react-dom/cjs/react-dom-client.production.js',
    what: 'react-dom <script> element creation',
    find: lines(
      '                case "script":',
      '                  nextResource = ownerDocument.createElement("div");',
      '                  nextResource.innerHTML = "<script>\\x3c/script>";',
      '                  nextResource = nextResource.removeChild(',
      '                    nextResource.firstChild',
      '                  );',
      '                  break;',
    ),
    occurrences: 1,
    replace: lines(
      '                case "script":',
      `                  throw Error(${JSON.stringify(`${compiledOut('Rendering a <script> element')}`)});`,
    ),
  },
  {
    module: '/node_modules/preact/dist/preact.module.js',
    what: 'Preact dangerouslySetInnerHTML (diffElementNodes)',
    find: 'if(h)c||p&&(h.__html==p.__html||h.__html==u.innerHTML)||(u.innerHTML=h.__html),t.__k=[];else if(p&&(u.innerHTML=""),',
    occurrences: 1,
    replace: `if(h)throw Error(${JSON.stringify(`${compiledOut('dangerouslySetInnerHTML')}: render text, not HTML`)});else if(p&&(u.textContent=""),`,
  },
];

/** A module id without its query, with forward slashes. */
const normalise = (id: string) => id.replace(/[?#].*$/, '').replaceAll('\\', '/');

const count = (text: string, part: string) => text.split(part).length - 1;

/**
 * Applies every patch for module `id` to `code`; `null` when no patch targets it. Throws when a
 * patch's text does not occur exactly as often as it says.
 */
export function applyPatches(code: string, id: string, patches: readonly Patch[] = PATCHES): string | null {
  const file = normalise(id);
  const mine = patches.filter((patch) => file.endsWith(patch.module));
  if (mine.length === 0) return null;
  let result = code;
  for (const patch of mine) {
    const found = count(result, patch.find);
    if (found !== patch.occurrences) {
      throw new Error(
        `${patch.what}: expected the patched text ${patch.occurrences} time(s) in ${file}, found it ${found} time(s). ` +
          'The dependency changed: read its new code and update its patch in scripts/build/ (the build stops rather than ship the old code).',
      );
    }
    result = result.replaceAll(patch.find, patch.replace);
  }
  return result;
}

/** What this plugin reads of an emitted file (a subset of Rollup's and Rolldown's OutputChunk/OutputAsset). */
interface EmittedFile {
  type: 'chunk' | 'asset';
  fileName: string;
  code?: string;
}

/** Throws, naming every file and excerpt, when an emitted script matches scripts/build/unsafe-code.ts. */
export function assertNoUnsafeCode(bundle: Record<string, EmittedFile>): void {
  const problems = Object.values(bundle).flatMap((file) =>
    file.type === 'chunk' && file.code !== undefined
      ? findUnsafeCode(file.code).map(({ rule, excerpt }) => `${file.fileName}: ${rule}: …${excerpt}…`)
      : [],
  );
  if (problems.length > 0) {
    throw new Error(
      `compile-out: the bundle holds code store review rejects:\n  ${problems.join('\n  ')}\n` +
        'Find the module it comes from and compile it out in scripts/build/compile-out.ts (or stop using it).',
    );
  }
}

export interface CompileOutOptions {
  /** Check the emitted scripts (production builds; development builds use React's development files). */
  checkOutput: boolean;
}

/** The Vite (Rolldown) plugin: patches on transform, the output check on generateBundle. */
export function compileOut({ checkOutput }: CompileOutOptions) {
  return {
    name: 'compliance-lens:compile-out',
    // Before other transforms, so the published text is what gets matched.
    enforce: 'pre' as const,
    transform(code: string, id: string) {
      const patched = applyPatches(code, id);
      // No source map for the few replaced lines: production builds emit none.
      return patched === null ? null : { code: patched, map: null };
    },
    generateBundle(_options: unknown, bundle: Record<string, EmittedFile>) {
      if (checkOutput) assertNoUnsafeCode(bundle);
    },
  };
}
