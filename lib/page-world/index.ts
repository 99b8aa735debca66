/**
 * lib/page-world: code that runs in a page's own JavaScript world (`world: 'MAIN'`), where a script
 * costs the browser no isolated world, but has no extension API and is as visible and forgeable as
 * the page's own scripts. So it imports only the core and lib/dom, holds nothing secret, and what it
 * says only asks the background to look for itself. Its entrypoint and the background import it.
 */
export * from './frame-sentinel';
export * from './link-report';
