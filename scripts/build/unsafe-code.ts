/**
 * What a store reviewer rejects in an extension's scripts, as text patterns over the built (minified)
 * code: the `Function` constructor and `eval` (code from strings; extension CSP forbids both anyway)
 * and HTML written into the DOM from a string. Mozilla's linter (`web-ext lint`) finds these in the
 * Firefox build by parsing it; Chrome has no such linter, so the build (scripts/build/compile-out.ts) and the
 * store-package test (test/e2e/store-package.spec.ts) run these patterns over every script.
 *
 * They are patterns, not a parser: a string literal that reads like code (say the message
 * "Function types cannot be …") also matches. That fails loudly, never silently: read the excerpt.
 */

export interface UnsafeCodeRule {
  name: string;
  pattern: RegExp;
}

export const UNSAFE_CODE_RULES: readonly UnsafeCodeRule[] = [
  {
    // `Function(…)`, `new Function`, and the alias a minifier writes (`let e=Function,`). Not a
    // property (`x.Function`), not `Function.prototype`, not inside "[object Function]".
    name: 'the Function constructor',
    pattern: /(?<![\w$.'"`])Function(?![\w$'"`\]])(?!\s*\.prototype\b)/g,
  },
  // `eval(…)` and indirect `(0, eval)(…)`; not `x.eval`, `evaluate`, or 'unsafe-eval'.
  { name: 'eval', pattern: /(?<![\w$.'"`-])eval(?![\w$'"`-])/g },
  { name: 'an innerHTML or outerHTML assignment', pattern: /\.(?:inner|outer)HTML\s*\+?=(?!=)/g },
  { name: 'insertAdjacentHTML', pattern: /\.insertAdjacentHTML\s*\(/g },
  { name: 'document.write', pattern: /\bdocument\.write(?:ln)?\s*\(/g },
];

export interface UnsafeCodeFinding {
  rule: string;
  /** The match with up to 40 characters either side. */
  excerpt: string;
}

/** Every match of every rule in `code`. */
export function findUnsafeCode(code: string): UnsafeCodeFinding[] {
  return UNSAFE_CODE_RULES.flatMap(({ name, pattern }) =>
    [...code.matchAll(pattern)].map((match) => ({
      rule: name,
      excerpt: code.slice(Math.max(0, match.index - 40), match.index + match[0].length + 40),
    })),
  );
}
