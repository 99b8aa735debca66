import { API_PATH_PREFIX, API_PATH_TEMPLATE, SHARE_PATH_PREFIX, SHARE_PATH_TEMPLATE } from '../../lib/core/services';

/**
 * Where the snapshot API and the human view live, built from the prefixes the extension recognises
 * (lib/core/services.ts), so the server and the reader cannot disagree on a path.
 */
/** Everything under each prefix (rate limit, unknown-token answers, allowed methods). */
export const SNAPSHOT_PATHS = `${API_PATH_PREFIX}*`;
export const SHARE_PATHS = `${SHARE_PATH_PREFIX}*`;
/** The OpenAPI forms (`{token}`); the router's (`:token`) come from them. */
export const SNAPSHOT_OPENAPI_PATH = API_PATH_TEMPLATE;
export const SHARE_OPENAPI_PATH = SHARE_PATH_TEMPLATE;

export const isSharePath = (path: string): boolean => path.startsWith(SHARE_PATH_PREFIX);
export const isSnapshotPath = (path: string): boolean => path.startsWith(API_PATH_PREFIX);
export const snapshotUrl = (base: string, token: string): string => `${base}${API_PATH_PREFIX}${token}`;
export const shareUrl = (base: string, token: string): string => `${base}${SHARE_PATH_PREFIX}${token}`;

/** The two URLs of a share token: the API's and the human view's. */
export function shareLinkUrls(base: string, token: string): { api_url: string; share_url: string } {
  return { api_url: snapshotUrl(base, token), share_url: shareUrl(base, token) };
}
