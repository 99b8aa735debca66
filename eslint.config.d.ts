import type { Linter } from 'eslint';

/** The import-boundary blocks of eslint.config.js (tested in test/repository/boundaries.test.ts). */
export declare const BOUNDARIES: Linter.Config[];
declare const config: Linter.Config[];
export default config;
