import { describe, expect, it } from 'vitest';
import { findUnsafeCode } from '@/scripts/build/unsafe-code';

const rules = (code: string) => findUnsafeCode(code).map((finding) => finding.rule);

describe('findUnsafeCode', () => {
  it.each([
    ['Function(``)', 'the Function constructor'],
    ['try{return Function(``),!0}catch{return!1}', 'the Function constructor'],
    ['new Function("a", "return a")', 'the Function constructor'],
    ['compile(){let e=Function,t=this?.content}', 'the Function constructor'],
    ['const F = Function;\nnew F("")', 'the Function constructor'],
    ['eval("1+1")', 'eval'],
    ['(0, eval)(code)', 'eval'],
    ['o?.__html!==n&&(e.innerHTML=n)', 'an innerHTML or outerHTML assignment'],
    ['o.innerHTML=`<script><\\/script>`', 'an innerHTML or outerHTML assignment'],
    ['el.outerHTML = html', 'an innerHTML or outerHTML assignment'],
    ['el.innerHTML += more', 'an innerHTML or outerHTML assignment'],
    ['el.insertAdjacentHTML("beforeend", html)', 'insertAdjacentHTML'],
    ['document.write(html)', 'document.write'],
    ['document.writeln(html)', 'document.write'],
  ])('finds %s', (code, rule) => {
    expect(rules(code)).toEqual([rule]);
  });

  it.each([
    'typeof e==`function`',
    'Function.prototype.toString.call(fn)',
    'Object.prototype.toString.call(x)==="[object Function]"',
    'x.Function = 1',
    'isFunction(x); AsyncFunction; FunctionalComponent',
    'case`innerHTML`:case`ref`:break',
    'if (el.innerHTML === "") read(el.innerHTML)',
    "evaluate(x); x.eval(1); \"script-src 'self' 'unsafe-eval'\"",
    'doc.write(`return payload;`)',
    'el.textContent = text',
  ])('leaves alone %s', (code) => {
    expect(findUnsafeCode(code)).toEqual([]);
  });

  it('gives an excerpt around each match', () => {
    const code = `${'a'.repeat(100)};e.innerHTML=n;${'b'.repeat(100)}`;
    expect(findUnsafeCode(code)).toEqual([
      { rule: 'an innerHTML or outerHTML assignment', excerpt: `${'a'.repeat(38)};e.innerHTML=n;${'b'.repeat(38)}` },
    ]);
  });
});
