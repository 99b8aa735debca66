/**
 * WXT wraps each unlisted script (the annotator, the frame relay, the sentinel, the card presenter)
 * in a module that reports a crash through its logger. A production build silences that logger, yet
 * its calls and their messages stay in every bundle: about 120 B gzip of the annotator's 15 KB
 * budget. In a production build this plugin gives the wrapper exactly what it does there: run the
 * plugins, run `main()`, hand on its result, and let anything thrown go through unchanged.
 *
 * Like scripts/build/compile-out.ts, it names the exact published text it replaces: when an update of
 * WXT changes that text, the build stops instead of shipping a wrapper nobody read.
 */

import { applyPatches, type Patch } from './compile-out';

/** The wrapper's body in wxt@0.21.4 (`dist/virtual/unlisted-script-entrypoint.mjs`), from its first statement. */
export const WRAPPER_BODY = `const result = (() => {
	try {
		initPlugins();
	} catch (err) {
		logger.error(\`Failed to initialize plugins for "\${import.meta.env.ENTRYPOINT}"\`, err);
		throw err;
	}
	let result;
	try {
		result = definition.main();
		if (result instanceof Promise) result = result.catch((err) => {
			logger.error(\`The unlisted script "\${import.meta.env.ENTRYPOINT}" crashed on startup!\`, err);
			throw err;
		});
	} catch (err) {
		logger.error(\`The unlisted script "\${import.meta.env.ENTRYPOINT}" crashed on startup!\`, err);
		throw err;
	}
	return result;
})();`;

/** What a production build runs: the same steps, without the silenced logging. */
export const LEAN_BODY = `const result = (() => {
	initPlugins();
	return definition.main();
})();`;

/** WXT loads the wrapper as `\0virtual:wxt-unlisted-script-entrypoint?<the script's path>`. */
export const LEAN_WRAPPER: Patch = {
  module: 'virtual:wxt-unlisted-script-entrypoint',
  what: "WXT's unlisted-script wrapper (lean-wrapper)",
  find: WRAPPER_BODY,
  occurrences: 1,
  replace: LEAN_BODY,
};

/** The wrapper `code` of module `id` made lean; `null` for any other module. Throws when the wrapper is not WXT's known text. */
export const leanWrapper = (code: string, id: string): string | null => applyPatches(code, id, [LEAN_WRAPPER]);

/** The Vite (Rolldown) plugin; development builds keep WXT's wrapper, whose logger speaks there. */
export function leanUnlistedScripts({ production }: { production: boolean }) {
  return {
    name: 'compliance-lens:lean-wrapper',
    // Before other transforms, so WXT's published text is what gets matched.
    enforce: 'pre' as const,
    transform(code: string, id: string) {
      const lean = production ? leanWrapper(code, id) : null;
      return lean === null ? null : { code: lean, map: null };
    },
  };
}
