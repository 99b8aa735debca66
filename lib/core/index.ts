/**
 * lib/core: the shared core, imported by the server and by every extension process (the content
 * script too), so it uses no browser, Node or React API, and only lib/core/schemas may import zod.
 */
export * from './api-errors';
export * from './content-scripts';
export * from './coalesce';
export * from './csv';
export * from './display-text';
export * from './format';
export * from './frame-signals';
export * from './guards';
export * from './labels';
export * from './limits';
export * from './result-codes';
export * from './services';
export * from './storage-keys';
export * from './thrown';
export * from './token';
