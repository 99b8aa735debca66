/**
 * Every API route is declared once, as a `createRoute` object (@hono/zod-openapi), and `serve` puts
 * that one object into the OpenAPI document, into the router and into the input checks. Input is
 * read the project's way (body.ts): a path parameter that does not fit its schema is the route's
 * 404, a bad query or JSON body a 400 naming each field, a body that is not JSON a 415, and an empty
 * body counts as `{}`. Any other method on a served path gets 405 with an `Allow` header, from the
 * same declarations (`refuseOtherMethods`).
 */
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { ZodType, type z } from 'zod';
import type { AppEnv } from '../app-env';
import { describeIssues, readJson } from './body';
import { ApiError, sendError } from './errors';

export type ServerApp = OpenAPIHono<AppEnv>;

/** A route as `createRoute` makes it: its config and the Hono path (`/x/:id` for `/x/{id}`). */
export type DeclaredRoute = RouteConfig & { getRoutingPath(): string };

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type RequestOf<R extends RouteConfig> = NonNullable<R['request']>;
type BodySchemaOf<R extends RouteConfig> =
  RequestOf<R> extends { body: { content: { 'application/json': { schema: infer S } } } } ? S : undefined;

/** What a handler is given: its path parameters, query and JSON body, each parsed by the route's own schemas. */
export interface RouteInput<R extends RouteConfig> {
  params: Parsed<RequestOf<R>['params']>;
  query: Parsed<RequestOf<R>['query']>;
  body: Parsed<BodySchemaOf<R>>;
}

export type RouteHandler<R extends RouteConfig> = (c: Context<AppEnv>, input: RouteInput<R>) => Response | Promise<Response>;

/** The methods served on each path, per app, for the 405 answers. */
const servedMethods = new WeakMap<ServerApp, Map<string, Set<string>>>();

function jsonBodySchema(route: RouteConfig): z.ZodType | undefined {
  const media = route.request?.body?.content['application/json'];
  const schema = media !== undefined && 'schema' in media ? media.schema : undefined;
  return schema instanceof ZodType ? schema : undefined;
}

async function readInput<R extends RouteConfig>(c: Context<AppEnv>, route: R): Promise<RouteInput<R>> {
  const paramsSchema = route.request?.params;
  const querySchema = route.request?.query;
  const bodySchema = jsonBodySchema(route);
  let params: unknown;
  if (paramsSchema) {
    const parsed = paramsSchema.safeParse(c.req.param());
    // An id that cannot exist is the same 404 as an unknown one (a NUL would make PostgreSQL fail).
    if (!parsed.success) throw new ApiError(404, 'NOT_FOUND', parsed.error.issues[0]?.message ?? 'Not found.');
    params = parsed.data;
  }
  let query: unknown;
  if (querySchema) {
    const parsed = querySchema.safeParse(c.req.query());
    if (!parsed.success) throw new ApiError(400, 'VALIDATION_ERROR', `Invalid query: ${describeIssues(parsed.error)}`);
    query = parsed.data;
  }
  const body: unknown = bodySchema ? await readJson(c, bodySchema) : undefined;
  // Each value was just parsed by the schema its type is read from.
  return { params, query, body } as RouteInput<R>;
}

const asArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Documents and routes `route`; its middleware (authentication) runs before the input is read. */
export function serve<R extends DeclaredRoute>(app: ServerApp, route: R, handler: RouteHandler<R>): void {
  const { middleware, hide, ...documented } = route;
  if (!hide) app.openAPIRegistry.registerPath(documented);
  const path = route.getRoutingPath();
  const method = route.method.toUpperCase();
  const methods = servedMethods.get(app) ?? new Map<string, Set<string>>();
  servedMethods.set(app, methods.set(path, (methods.get(path) ?? new Set()).add(method)));
  const handlers: MiddlewareHandler<AppEnv>[] = [...asArray(middleware), async (c) => handler(c, await readInput(c, route))];
  app.on(method, [path], ...handlers);
}
/** 405 METHOD_NOT_ALLOWED with `Allow` on `path` for every method but these (GET brings HEAD). */
export function allowOnly(app: ServerApp, path: string, methods: readonly string[]): void {
  const allowed = methods.includes('GET') ? [...methods, 'HEAD'] : [...methods];
  app.all(path, (c) => {
    c.header('Allow', allowed.join(', '));
    return sendError(c, 405, 'METHOD_NOT_ALLOWED', `Method ${c.req.method} is not allowed here; use ${allowed.join(', ')}.`);
  });
}

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** After every route is served: the 405 answers of each served path. */
export function refuseOtherMethods(app: ServerApp): void {
  for (const [path, methods] of servedMethods.get(app) ?? []) {
    allowOnly(
      app,
      path,
      [...methods].sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b)),
    );
  }
}
