import type { Clock } from './clock';
import type { Database } from './db/driver';
import type { AllowedHosts } from './http/hosts';

export interface Logger {
  error(message: string, error?: unknown): void;
}

export interface AppConfig {
  /** Enables `/api/dev/*` (clock, reset). Otherwise those paths are 404. */
  dev: boolean;
  /** Rate-limit by the right-most `X-Forwarded-For` entry instead of the socket address. */
  trustProxy: boolean;
  /** Base of `api_url`, `share_url` and `human_summary_url`; defaults to the request's origin. */
  publicBaseUrl?: string;
  /** `links.service_profile_url` of every snapshot: the service's marketing site. */
  serviceProfileUrl: string;
  /** Largest accepted request body on the founder, partner, operator and dev APIs (bytes). */
  bodyLimitBytes?: number;
  /**
   * `Host` names answered besides localhost, 127.0.0.1 and [::1] (any port); others get 421
   * HOST_NOT_ALLOWED (DNS-rebinding defence). Default: loopback names only. `allowedHostsFor` builds it from CLI flags.
   */
  allowedHosts?: AllowedHosts;
  /**
   * Enables the operator API (`/api/operator/*`: partner keys) for `Authorization: Bearer <secret>`;
   * without it those paths are 404. `--operator-secret` or `OPERATOR_SECRET`.
   */
  operatorSecret?: string;
  logger?: Logger;
}

/** Who a partner key belongs to: set on the request by the partners domain's key check (server/partners/auth.ts). */
export interface PartnerIdentity {
  id: string;
  name: string;
  quotaPerMinute: number;
}

/** Hono environment: per-request variables. */
export type AppEnv = {
  Variables: { orgId: string; partner: PartnerIdentity };
};

export const DEFAULT_SERVICE_PROFILE_URL = 'https://service.example/';
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

/** What every domain's routes are given by `createApp` (server/app.ts); each adds what it needs besides. */
export interface RouteDeps {
  db: Database;
  clock: Clock;
  config: AppConfig;
}
