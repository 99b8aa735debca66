/**
 * `createApp({ db, clock, rateLimiter, config, webhooks, demo, signAnswers })`: the whole HTTP surface, with every
 * dependency passed in (tests own their database, clock, limiter and webhook worker; nothing lives at
 * module level). Each domain serves its own routes (snapshots, founders, partners, webhooks, dev); this
 * file puts them in order behind the shared defences. The outbox worker (server/webhooks/dispatcher.ts)
 * runs beside the app, not in it (server/start.ts).
 */
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import type { Context, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { JWKS_PATH } from '../lib/core/signing/wire';
import { demoRoutes, setDemoHeaders } from './dev/demo-routes';
import type { DemoLink } from './dev/demo-page';
import { devRoutes } from './dev/routes';
import { founderRoutes } from './founders/routes';
import { hasBearer, requirePartner } from './partners/auth';
import { operatorRoutes } from './partners/operator-routes';
import { partnerRoutes } from './partners/routes';
import { DEFAULT_BODY_LIMIT_BYTES, type AppConfig, type AppEnv, type Logger, type RouteDeps } from './platform/app-env';
import type { Clock } from './platform/clock';
import type { Database } from './platform/db/driver';
import { healthRoutes } from './platform/health-routes';
import { refuseCrossOriginWrites } from './platform/http/cross-origin';
import {
  ApiError,
  errorEnvelope,
  HOST_NOT_ALLOWED_MESSAGE,
  INTERNAL_ERROR_MESSAGE,
  RATE_LIMITED_MESSAGE,
  sendError,
} from './platform/http/errors';
import { hostChecker, urlAuthority } from './platform/http/hosts';
import { COMMON_ERRORS, errors, json, openApiDocument, registerSecuritySchemes } from './platform/http/openapi';
import { refuseOtherMethods, serve, type ServerApp } from './platform/http/routes';
import { createRateLimitMiddleware, type RateLimiterDeps } from './platform/rate-limit/middleware';
import { htmlErrorPage } from './platform/views/error-page';
import { isSharePath, isSnapshotPath, SHARE_PATHS, SNAPSHOT_PATHS } from './snapshots/paths';
import { setShareHeaders, snapshotRoutes } from './snapshots/routes';
import { ViewCounter } from './snapshots/snapshot';
import { jwksRoutes, SIGNATURE_HEADERS, signAnswers, signingOperatorRoutes } from './signing/routes';
import { SnapshotSigner } from './signing/signer';
import { checkEndpointUrl, type UrlCheck } from './webhooks/url-policy';
import { webhookRoutes } from './webhooks/routes';

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
  /** `--seed`: the demo links `/demo` shows (none otherwise). */
  demo?: { links(): readonly DemoLink[] | null };
  /**
   * Default `true`. `false` leaves the snapshot answers unsigned: it exists only so `npm run bench`
   * can measure what signing costs (test/bench/unsigned-server.ts); no CLI flag sets it, since every
   * real answer of the snapshot route is signed (issue #36).
   */
  signAnswers?: boolean;
}

const consoleLogger: Logger = {
  error: (message, error) => console.error(message, error),
};

const RATE_LIMIT_HEADERS = ['RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'];
/** Paths of the APIs that take a body: founder, operator, dev and version 1's partner API. */
const BODY_PATHS = [
  '/api/founder/*',
  '/api/operator/*',
  '/api/dev/*',
  '/api/v1/partner',
  '/api/v1/follows/*',
  '/api/v1/webhook-endpoints/*',
  '/api/v1/events',
];

/** Where a browser expects a page, not JSON: the share view, the demo page and the `/` redirect to it. */
function isHtmlPage(c: Context): boolean {
  const { path, method } = c.req;
  return (
    (method === 'GET' || method === 'HEAD') && (path === '/' || path === '/demo' || path === '/share' || isSharePath(c.req.path))
  );
}

export function createApp(input: AppDeps): ServerApp {
  const logger = input.config.logger ?? consoleLogger;
  const deps: RouteDeps = { db: input.db, clock: input.clock, config: { ...input.config, logger } };
  const nudge = () => input.webhooks?.nudge();
  const app: ServerApp = new OpenAPIHono<AppEnv>();

  // Headers every response carries; API, share and demo responses are never cached (each GET of a
  // snapshot is a view; the demo page lists seeded tokens).
  app.use('*', async (c: Context<AppEnv>, next) => {
    await next();
    c.header('X-Content-Type-Options', 'nosniff');
    if (c.req.path.startsWith('/api/') || isSharePath(c.req.path)) c.header('Cache-Control', 'no-store');
    if (isSharePath(c.req.path)) setShareHeaders(c);
    if (c.req.path === '/demo') setDemoHeaders(c);
  });

  // Every snapshot answer is signed (issue #36); outermost but for the headers above, so the host
  // check's 421 and the limiter's 429 are signed too.
  const signer = new SnapshotSigner(deps.db, deps.clock);
  if (input.signAnswers ?? true) app.use(SNAPSHOT_PATHS, signAnswers(signer));

  // DNS rebinding: a page whose domain now resolves to this machine still sends its own name as Host.
  // The URL's authority is checked too: an absolute-form request target overrides Host.
  const isAllowedHost = hostChecker(deps.config.allowedHosts);
  app.use('*', async (c: Context<AppEnv>, next) => {
    const host = c.req.header('host');
    if ((host === undefined || isAllowedHost(host)) && isAllowedHost(urlAuthority(c.req.url))) return next();
    return isHtmlPage(c) ? htmlErrorPage(c, 421) : sendError(c, 421, 'HOST_NOT_ALLOWED', HOST_NOT_ALLOWED_MESSAGE);
  });

  // Public read endpoints: any web origin may read them, without credentials.
  const publicCors = cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD', 'OPTIONS'],
    allowHeaders: ['Accept', 'Content-Type'],
    exposeHeaders: [...RATE_LIMIT_HEADERS, ...SIGNATURE_HEADERS],
    maxAge: 600,
  });
  app.use('/api/v1/*', publicCors);
  app.use('/api/health', publicCors);
  app.use('/api/openapi.json', publicCors);
  app.use(JWKS_PATH, publicCors);

  // With a partner key, a snapshot request draws on the key's own quota instead of its address's.
  const partnerAuth = requirePartner(deps, {
    store: input.rateLimiter.store,
    windowMs: input.rateLimiter.windowMs,
    trustProxy: deps.config.trustProxy,
  });
  const keyedSnapshots: MiddlewareHandler<AppEnv> = (c, next) => (hasBearer(c) ? partnerAuth(c, next) : next());
  app.use(SNAPSHOT_PATHS, keyedSnapshots);
  const limiter = createRateLimitMiddleware(input.rateLimiter, {
    trustProxy: deps.config.trustProxy,
    onLimited: (c) => (isHtmlPage(c) ? htmlErrorPage(c, 429) : sendError(c, 429, 'RATE_LIMITED', RATE_LIMITED_MESSAGE)),
    skip: (c) => isSnapshotPath(c.req.path) && hasBearer(c),
  });
  app.use(SNAPSHOT_PATHS, limiter);
  app.use(SHARE_PATHS, limiter);

  const limitBody = bodyLimit({
    maxSize: deps.config.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    onError: (c) => sendError(c, 413, 'PAYLOAD_TOO_LARGE', 'Request body is too large.'),
  });
  for (const path of BODY_PATHS) app.use(path, limitBody);

  // State changes never come from another web page (founder and dev callers are scripts and tests).
  const sameOriginWrites = refuseCrossOriginWrites({ publicBaseUrl: deps.config.publicBaseUrl });
  app.use('/api/founder/*', sameOriginWrites);
  app.use('/api/operator/*', sameOriginWrites);
  if (deps.config.dev) app.use('/api/dev/*', sameOriginWrites);

  registerSecuritySchemes(app);
  const views = new ViewCounter(deps.db, () => deps.clock.now());
  snapshotRoutes(app, deps, views);
  healthRoutes(app, deps);
  jwksRoutes(app, signer);
  founderRoutes(app, { ...deps, nudge });
  partnerRoutes(app, { ...deps, requirePartner: partnerAuth });
  webhookRoutes(app, {
    ...deps,
    requirePartner: partnerAuth,
    nudge,
    checkUrl: (url) => input.webhooks?.checkUrl(url) ?? checkEndpointUrl(url, { allowLoopback: deps.config.dev }),
  });
  const operatorSecret = deps.config.operatorSecret;
  if (operatorSecret) {
    operatorRoutes(app, { ...deps, secret: operatorSecret, store: input.rateLimiter.store });
    signingOperatorRoutes(app, signer);
  }
  if (deps.config.dev) devRoutes(app, { ...deps, store: input.rateLimiter.store, nudge });

  let document: unknown;
  serve(
    app,
    createRoute({
      method: 'get',
      path: '/api/openapi.json',
      summary: 'This OpenAPI 3.1 document',
      responses: {
        200: json(z.looseObject({ openapi: z.string() }), 'The OpenAPI document'),
        ...errors(COMMON_ERRORS),
      },
    }),
    // Generated once, from every route served above.
    (c) => c.json((document ??= openApiDocument(app)), 200),
  );

  demoRoutes(app, { ...deps, demoLinks: () => input.demo?.links() ?? null }, views);
  refuseOtherMethods(app);

  app.notFound((c) => sendError(c, 404, 'NOT_FOUND', `No route for ${c.req.method} ${c.req.path}.`));

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(errorEnvelope(error.code, error.message), error.status);
    }
    if (error instanceof HTTPException && error.status < 500) {
      // Hono's own 4xx (e.g. malformed request) keep their status; the body is still our envelope.
      return sendError(
        c,
        error.status === 413 ? 413 : 400,
        error.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR',
        error.message || 'Bad request.',
      );
    }
    // Details stay in the server log; the client gets a generic message and no stack.
    logger.error(`unhandled error on ${c.req.method} ${c.req.path}`, error);
    if (isSharePath(c.req.path)) return htmlErrorPage(c, 500);
    return sendError(c, 500, 'INTERNAL_ERROR', INTERNAL_ERROR_MESSAGE);
  });

  return app;
}
