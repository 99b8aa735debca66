import type { Clock } from './clock';
import type { Database } from './db/driver';
import type { AllowedHosts } from './http/hosts';
import type { RateLimiterDeps } from './rate-limit/middleware';
import type { AuthenticatedPartner } from './partners/keys';
import type { DemoLink } from './views/demo-page';
import type { UrlCheck } from './webhooks/url-policy';

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
  /** Largest accepted request body on the founder and dev APIs (bytes). */
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
  /** Seeded demo links for `/demo`; null when the server was not seeded. */
  demoLinks?: () => readonly DemoLink[] | null;
  logger?: Logger;
}

/** What the app needs of webhook delivery (server/webhooks): the dispatcher runs beside it. */
export interface WebhookDeps {
  /** Asks the outbox worker to look now: a change was recorded, or the dev clock moved. */
  nudge(): void;
  /** Refuses an endpoint URL the sender would refuse (scheme, credentials, resolved addresses). */
  checkUrl(url: string): Promise<UrlCheck>;
}

export interface AppDeps {
  db: Database;
  clock: Clock;
  rateLimiter: RateLimiterDeps;
  config: AppConfig;
  /** Default: no worker to nudge, and URLs checked against the system's DNS (loopback allowed with `dev`). */
  webhooks?: WebhookDeps;
}

/** Hono environment: the node-server binding (socket) and per-request variables. */
export type AppEnv = {
  Variables: { orgId: string; partner: AuthenticatedPartner };
};

export const DEFAULT_SERVICE_PROFILE_URL = 'https://service.example/';
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;
