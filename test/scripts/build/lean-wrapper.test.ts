import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEAN_BODY, leanUnlistedScripts, leanWrapper } from '@/scripts/build/lean-wrapper';

const root = path.resolve(import.meta.dirname, '../../..');
/** WXT's wrapper as its resolver loads it for the annotator (the installed file, the user entry swapped in). */
const wrapper = readFileSync(path.join(root, 'node_modules/wxt/dist/virtual/unlisted-script-entrypoint.mjs'), 'utf8').replace(
  'virtual:user-unlisted-script-entrypoint',
  '/project/entrypoints/annotator.ts',
);
const ID = '\0virtual:wxt-unlisted-script-entrypoint?/project/entrypoints/annotator.ts';

/** Runs a wrapper's body with `definition` and `initPlugins` of the test's own; returns its `result`. */
function run(body: string, main: () => unknown, initPlugins: () => void = () => undefined): unknown {
  const statements = body.slice(body.indexOf('const result = '), body.indexOf('export {'));
  const logger = { error: () => undefined };
  // The module's text, evaluated here only to compare the two wrappers' behaviour.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const evaluate = new Function(
    'definition',
    'initPlugins',
    'logger',
    `${statements.replaceAll('import.meta.env.ENTRYPOINT', '"annotator"')}\nreturn result;`,
  );
  const result: unknown = Reflect.apply(evaluate, undefined, [{ main }, initPlugins, logger]);
  return result;
}

describe('the lean wrapper of the unlisted scripts', () => {
  it('matches the installed WXT wrapper once and leaves its logging out', () => {
    const lean = leanWrapper(wrapper, ID) ?? '';
    expect(lean).toContain(LEAN_BODY);
    expect(lean).not.toContain('crashed on startup');
    expect(lean).toContain('import definition from "/project/entrypoints/annotator.ts"');
  });

  it('does what the wrapper does: runs the plugins, then main, hands on its result, lets a throw or a rejection through', async () => {
    const lean = leanWrapper(wrapper, ID) ?? '';
    for (const body of [wrapper, lean]) {
      const order: string[] = [];
      expect(
        run(
          body,
          () => (order.push('main'), 42),
          () => void order.push('plugins'),
        ),
      ).toBe(42);
      expect(order).toEqual(['plugins', 'main']);
      expect(() =>
        run(body, () => {
          throw new Error('main broke');
        }),
      ).toThrow('main broke');
      expect(() =>
        run(
          body,
          () => 1,
          () => {
            throw new Error('plugin broke');
          },
        ),
      ).toThrow('plugin broke');
      await expect(run(body, () => Promise.reject(new Error('later')))).rejects.toThrow('later');
    }
  });

  it('leaves every other module alone, and stops the build on a wrapper it does not know', () => {
    expect(leanWrapper(wrapper, '/project/lib/content/annotator/start.ts')).toBeNull();
    expect(() => leanWrapper(wrapper.replace('initPlugins();', 'initPlugins(1);'), ID)).toThrow(
      /unlisted-script wrapper .*found it 0 time/,
    );
  });

  it('applies to production builds only (development keeps WXT’s logging)', () => {
    expect(leanUnlistedScripts({ production: false }).transform(wrapper, ID)).toBeNull();
    expect(leanUnlistedScripts({ production: true }).transform(wrapper, ID)?.code).toContain(LEAN_BODY);
  });
});
