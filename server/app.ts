/**
 * `createApp({ db, clock, rateLimiter, config, webhooks })`: the whole HTTP surface, with every
 * dependency passed in (tests own their database, clock, limiter and webhook worker; nothing lives at
 * module level). The outbox worker (server/webhooks/dispatcher.ts) runs beside the app, not in it.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { DEFAULT_BODY_LIMIT_BYTES, type AppDeps, type AppEnv, type Logger } from './app-types';
import { refuseCrossOriginWrites } from './http/cross-origin';
import {
  ApiError,
  HOST_NOT_ALLOWED_MESSAGE,
  INTERNAL_ERROR_MESSAGE,
  RATE_LIMITED_MESSAGE,
  errorEnvelope,
  sendError,
} from './http/errors';
import { allowOnly } from './http/methods';
import { buildOpenApiDocument } from './openapi';
import { createRateLimitMiddleware } from './rate-limit/middleware';
import { isSharePath, isSnapshotPath, PARTNER_PATHS, SHARE_PATHS, SNAPSHOT_PATHS } from './paths';
import { hasBearer, requirePartner } from './http/partner-auth';
import { registerOperatorRoutes } from './routes/operator';
import { registerPartnerRoutes } from './routes/partner';
import { ViewCounter } from './snapshot';
import { registerDemoRoutes, setDemoHeaders } from './routes/demo';
import { registerDevRoutes } from './routes/dev';
import { registerFounderRoutes } from './routes/founder';
import { registerHealthRoutes } from './routes/health';
import { htmlErrorPage, registerShareRoutes, setShareHeaders } from './routes/share';
import { registerSnapshotRoutes } from './routes/snapshot';
import { hostChecker, urlAuthority } from './http/hosts';

const consoleLogger: Logger = {
  error: (message, error) => console.error(message, error),
};

const RATE_LIMIT_HEADERS = ['RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'];

/** Where a browser expects a page, not JSON: the share view, the demo page and the `/` redirect to it. */
function isHtmlPage(c: Context): boolean {
  const { path, method } = c.req;
  return (
    (method === 'GET' || method === 'HEAD') && (path === '/' || path === '/demo' || path === '/share' || isSharePath(c.req.path))
  );
}

export function createApp(input: AppDeps): Hono<AppEnv> {
  const logger = input.config.logger ?? consoleLogger;
  const deps: AppDeps = { ...input, config: { ...input.config, logger } };
  const app = new Hono<AppEnv>();

  // Headers every response carries; API, share and demo responses are never cached (each GET of a
  // snapshot is a view; the demo page lists seeded tokens).
  app.use('*', async (c: Context<AppEnv>, next) => {
    await next();
    c.header('X-Content-Type-Options', 'nosniff');
    if (c.req.path.startsWith('/api/') || isSharePath(c.req.path)) c.header('Cache-Control', 'no-store');
    if (isSharePath(c.req.path)) setShareHeaders(c);
    if (c.req.path === '/demo') setDemoHeaders(c);
  });

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
    exposeHeaders: RATE_LIMIT_HEADERS,
    maxAge: 600,
  });
  app.use('/api/v1/*', publicCors);
  app.use('/api/health', publicCors);
  app.use('/api/openapi.json', publicCors);

  // With a partner key, a snapshot request draws on the key's own quota instead of its address's.
  const partnerAuth = requirePartner(deps, {
    store: deps.rateLimiter.store,
    windowMs: deps.rateLimiter.windowMs,
    trustProxy: deps.config.trustProxy,
  });
  const keyedSnapshots: MiddlewareHandler<AppEnv> = (c, next) => (hasBearer(c) ? partnerAuth(c, next) : next());
  app.use(SNAPSHOT_PATHS, keyedSnapshots);
  const limiter = createRateLimitMiddleware(deps.rateLimiter, {
    trustProxy: deps.config.trustProxy,
    onLimited: (c) => (isHtmlPage(c) ? htmlErrorPage(c, 429) : sendError(c, 429, 'RATE_LIMITED', RATE_LIMITED_MESSAGE)),
    skip: (c) => isSnapshotPath(c.req.path) && hasBearer(c),
  });
  app.use(SNAPSHOT_PATHS, limiter);
  app.use(SHARE_PATHS, limiter);
  for (const path of PARTNER_PATHS) app.use(path, partnerAuth);

  const limitBody = bodyLimit({
    maxSize: deps.config.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    onError: (c) => sendError(c, 413, 'PAYLOAD_TOO_LARGE', 'Request body is too large.'),
  });
  app.use('/api/founder/*', limitBody);
  app.use('/api/dev/*', limitBody);
  app.use('/api/operator/*', limitBody);
  for (const path of PARTNER_PATHS) app.use(path, limitBody);

  // State changes never come from another web page (founder and dev callers are scripts and tests).
  const sameOriginWrites = refuseCrossOriginWrites({ publicBaseUrl: deps.config.publicBaseUrl });
  app.use('/api/founder/*', sameOriginWrites);
  app.use('/api/operator/*', sameOriginWrites);
  if (deps.config.dev) app.use('/api/dev/*', sameOriginWrites);

  const views = new ViewCounter(deps.db, () => deps.clock.now());
  registerSnapshotRoutes(app, deps, views);
  registerShareRoutes(app, deps, views);
  registerHealthRoutes(app, deps);
  registerFounderRoutes(app, deps);
  registerPartnerRoutes(app, deps);
  if (deps.config.operatorSecret) registerOperatorRoutes(app, deps, deps.config.operatorSecret);
  if (deps.config.dev) registerDevRoutes(app, deps);

  const openApiDocument = buildOpenApiDocument({ dev: deps.config.dev });
  app.get('/api/openapi.json', (c) => c.json(openApiDocument));
  allowOnly(app, '/api/openapi.json', ['GET']);

  registerDemoRoutes(app, deps, views);

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
