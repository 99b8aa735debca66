import { browser } from 'wxt/browser';
import { serviceConfigSchema } from '../core/schemas/service';

/**
 * Host access for configured services. The bundled local servers are in `host_permissions`; any other
 * service (the production placeholder, user-added ones) is covered only by `optional_host_permissions`
 * and must be granted at runtime from a user gesture in the options page (components/options).
 */

/**
 * The match pattern for one origin. Chrome matches ports exactly; Firefox's match patterns take no
 * port, so there the grant covers the host on every port.
 */
export function hostPermissionPattern(origin: string, includePort = !import.meta.env.FIREFOX): string {
  const url = new URL(serviceConfigSchema.shape.origin.parse(origin));
  const host = includePort ? url.host : url.hostname;
  return `${url.protocol}//${host}/*`;
}

export async function hasServicePermission(origin: string): Promise<boolean> {
  try {
    return await browser.permissions.contains({ origins: [hostPermissionPattern(origin)] });
  } catch {
    return false;
  }
}
