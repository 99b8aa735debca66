/**
 * A partner's webhook endpoints (`/api/v1/webhook-endpoints…`): register one (its URL checked by the
 * delivery policy, url-policy.ts), see its delivery state, delete, enable, replay; and each message with
 * its attempts (`/api/v1/webhook-messages/{id}`). Behind the partner key check, which the partners
 * domain passes in.
 */
import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AppEnv, RouteDeps } from '../platform/app-env';
import { emptyBody } from '../platform/http/body';
import { ApiError } from '../platform/http/errors';
import { BODY_ERRORS, errors, idParams, jsonBody, keyed, KEYED_ERRORS, SECURITY, success } from '../platform/http/openapi';
import { serve, type ServerApp } from '../platform/http/routes';
import {
  createEndpoint,
  deleteEndpoint,
  enableEndpoint,
  ENDPOINT_NOT_FOUND_MESSAGE,
  getEndpoint,
  listEndpoints,
  replayEndpoint,
} from './endpoints';
import { getMessage, MESSAGE_NOT_FOUND_MESSAGE } from './messages';
import { createdEndpointSchema, createEndpointBody, endpointSchema, messageSchema, replayBody } from './schemas';
import type { UrlCheck } from './url-policy';

export interface WebhookRouteDeps extends RouteDeps {
  requirePartner: MiddlewareHandler<AppEnv>;
  /** Refuses an endpoint URL delivery would refuse (url-policy.ts). */
  checkUrl(url: string): Promise<UrlCheck>;
  /** The outbox worker looks now (an endpoint was enabled, messages replayed). */
  nudge(): void;
}

const ok = <T extends object>(data: T) => ({ success: true as const, data, meta: {} });

export function webhookRoutes(app: ServerApp, deps: WebhookRouteDeps): void {
  const { db, clock } = deps;
  const partner = { security: SECURITY.partnerKey, middleware: [deps.requirePartner] };
  const endpointParams = idParams(ENDPOINT_NOT_FOUND_MESSAGE);

  serve(
    app,
    createRoute({
      method: 'post',
      path: '/api/v1/webhook-endpoints',
      summary: 'Register a webhook endpoint (HTTPS, public address); its signing secret is shown once',
      ...partner,
      request: { body: jsonBody(createEndpointBody) },
      responses: {
        201: keyed(success(z.object({ endpoint: createdEndpointSchema })), 'Created'),
        ...errors({ ...BODY_ERRORS, 409: ['CONFLICT'], ...KEYED_ERRORS }),
      },
    }),
    async (c, input) => {
      const checked = await deps.checkUrl(input.body.url);
      if (!checked.ok) throw new ApiError(400, 'VALIDATION_ERROR', `Invalid request body: \`url\`: ${checked.reason}`);
      const endpoint = await createEndpoint(db, clock.now(), c.get('partner').id, checked.url.href);
      return c.json(ok({ endpoint }), 201);
    },
  );

  serve(
    app,
    createRoute({
      method: 'get',
      path: '/api/v1/webhook-endpoints',
      summary: 'List webhook endpoints with their delivery status',
      ...partner,
      responses: { 200: keyed(success(z.object({ endpoints: z.array(endpointSchema) })), 'Endpoints'), ...errors(KEYED_ERRORS) },
    }),
    async (c) => c.json(ok({ endpoints: await listEndpoints(db, c.get('partner').id) }), 200),
  );

  serve(
    app,
    createRoute({
      method: 'get',
      path: '/api/v1/webhook-endpoints/{id}',
      summary: 'One webhook endpoint: enabled or disabled (and why), failures, message counts',
      ...partner,
      request: { params: endpointParams },
      responses: {
        200: keyed(success(z.object({ endpoint: endpointSchema })), 'Endpoint'),
        ...errors({ 404: ['NOT_FOUND'], ...KEYED_ERRORS }),
      },
    }),
    async (c, input) => c.json(ok({ endpoint: await getEndpoint(db, c.get('partner').id, input.params.id) }), 200),
  );

  serve(
    app,
    createRoute({
      method: 'delete',
      path: '/api/v1/webhook-endpoints/{id}',
      summary: 'Delete a webhook endpoint (its undelivered messages go with it)',
      ...partner,
      request: { params: endpointParams },
      responses: {
        200: keyed(success(z.object({ deleted: z.string() })), 'Deleted'),
        ...errors({ 404: ['NOT_FOUND'], ...KEYED_ERRORS }),
      },
    }),
    async (c, input) => {
      const { id } = input.params;
      await deleteEndpoint(db, c.get('partner').id, id);
      return c.json(ok({ deleted: id }), 200);
    },
  );

  serve(
    app,
    createRoute({
      method: 'post',
      path: '/api/v1/webhook-endpoints/{id}/enable',
      summary: 'Enable a disabled endpoint again; its pending messages go out',
      ...partner,
      request: { params: endpointParams, body: jsonBody(emptyBody, false) },
      responses: {
        200: keyed(success(z.object({ endpoint: endpointSchema })), 'Enabled'),
        ...errors({ ...BODY_ERRORS, 404: ['NOT_FOUND'], ...KEYED_ERRORS }),
      },
    }),
    async (c, input) => {
      const endpoint = await enableEndpoint(db, c.get('partner').id, input.params.id);
      deps.nudge();
      return c.json(ok({ endpoint }), 200);
    },
  );

  serve(
    app,
    createRoute({
      method: 'post',
      path: '/api/v1/webhook-endpoints/{id}/replay',
      summary: 'Queue messages again with their own webhook-id (failed ones, or all since a time) and enable the endpoint',
      ...partner,
      request: { params: endpointParams, body: jsonBody(replayBody, false) },
      responses: {
        200: keyed(success(z.object({ endpoint: endpointSchema, replayed: z.int() })), 'Queued again'),
        ...errors({ ...BODY_ERRORS, 404: ['NOT_FOUND'], ...KEYED_ERRORS }),
      },
    }),
    async (c, input) => {
      const result = await replayEndpoint(db, clock.now(), c.get('partner').id, input.params.id, input.body);
      deps.nudge();
      return c.json(ok(result), 200);
    },
  );

  serve(
    app,
    createRoute({
      method: 'get',
      path: '/api/v1/webhook-messages/{id}',
      summary: 'One message by its webhook-id (an event’s evt_…, a digest’s dig_…): its state and every attempt',
      description:
        'Each attempt: when it was made (server clock), the receiver’s status or the error, how long it took. The next attempt’s time while it is pending.',
      ...partner,
      request: { params: idParams(MESSAGE_NOT_FOUND_MESSAGE) },
      responses: {
        200: keyed(success(z.object({ message: messageSchema })), 'The message'),
        ...errors({ 404: ['NOT_FOUND'], ...KEYED_ERRORS }),
      },
    }),
    async (c, input) => c.json(ok({ message: await getMessage(db, c.get('partner').id, input.params.id) }), 200),
  );
}
