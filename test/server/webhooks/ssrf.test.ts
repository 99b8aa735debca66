/**
 * Where webhooks may go: refused at registration (scheme, credentials, private, loopback, link-local,
 * metadata and mapped addresses, names that resolve to them) and again on every attempt, on the
 * address actually connected to (DNS rebinding to loopback without --dev); no redirect followed;
 * bounded response time and size. Every connection here stays on 127.0.0.1: names resolve through
 * injected resolvers, and public addresses are only ever resolved, never connected to.
 */
import http from 'node:http';
import { isIP, type AddressInfo, type LookupFunction, type Socket } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Database } from '../../../server/platform/db/driver';
import { createHttpSender } from '../../../server/webhooks/sender';
import {
  addressAllowed,
  checkEndpointUrl,
  checkUrl,
  guardedLookup,
  type HostResolver,
} from '../../../server/webhooks/url-policy';
import { expectError, founderWithLink, withTestDatabase } from '../support/harness';
import { createPartner, follow, makeV1App, startReceiver, type Receiver, withReceiver } from '../support/v1';

let db: Database;
let receiver: Receiver;
withTestDatabase((database) => {
  db = database;
});
withReceiver((started) => {
  receiver = started;
});

/** Example public address (resolved only, never connected to). */
const PUBLIC = '93.184.216.34';
const NAMES: Record<string, string[]> = {
  'hooks.partner.test': [PUBLIC],
  'metadata.partner.test': ['169.254.169.254'],
  'internal.partner.test': ['10.1.2.3'],
  'mixed.partner.test': [PUBLIC, '192.168.0.10'],
  'v6private.partner.test': ['fd00:ec2::254'],
  'loopback.partner.test': ['127.0.0.1'],
};
const resolve: HostResolver = async (hostname) => {
  const addresses = NAMES[hostname];
  if (!addresses) throw new Error(`ENOTFOUND ${hostname}`);
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

/** A lookup (for the sender) that answers `address` for every name. */
function lookupTo(address: string): LookupFunction {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family: 4 }]);
    else callback(null, address, 4);
  };
  return lookup;
}

describe('registration refuses what a webhook must not reach', () => {
  it('without --dev: https to public addresses only', async () => {
    const t = makeV1App(db, { config: { dev: false }, resolve });
    const partner = await createPartner(t);
    const refused = [
      'http://hooks.partner.test/webhook',
      'https://user:secret@hooks.partner.test/webhook',
      'ftp://hooks.partner.test/',
      'not a url',
      'https://10.0.0.1/',
      'https://172.16.5.4/',
      'https://192.168.1.1/',
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://0.0.0.0/',
      'https://169.254.169.254/latest/meta-data/',
      'https://100.100.100.200/latest/meta-data/',
      'https://[fd00:ec2::254]/',
      'https://[fe80::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://metadata.partner.test/',
      'https://internal.partner.test/',
      'https://mixed.partner.test/',
      'https://v6private.partner.test/',
      'https://loopback.partner.test/',
      'https://localhost/',
      'https://nowhere.partner.test/',
    ];
    for (const url of refused) {
      const error = await expectError(await partner.call('POST', '/api/v1/webhook-endpoints', { url }), 400, 'VALIDATION_ERROR');
      expect(error.error, url).toContain('`url`');
    }
    const accepted = await partner.call('POST', '/api/v1/webhook-endpoints', { url: 'https://hooks.partner.test/webhook' });
    expect(accepted.status).toBe(201);
    const count = await db.query('SELECT count(*)::int AS n FROM webhook_endpoints WHERE partner_id = $1', [partner.id]);
    expect(count.rows[0]).toEqual({ n: 1 });
  });

  it('with --dev: plain http to loopback too, but still no private or metadata address', async () => {
    const check = (url: string) => checkEndpointUrl(url, { allowLoopback: true, resolve });
    for (const url of [
      'http://127.0.0.1:8788/webhook',
      'http://[::1]:9/',
      'http://loopback.partner.test/',
      'https://127.0.0.1/',
    ]) {
      expect((await check(url)).ok, url).toBe(true);
    }
    for (const url of [
      'http://10.0.0.1/',
      'http://169.254.169.254/',
      'http://hooks.partner.test/',
      'https://internal.partner.test/',
    ]) {
      expect((await check(url)).ok, url).toBe(false);
    }
  });
});

describe('the sender checks the address it connects to', () => {
  it('DNS rebinding to loopback without --dev: a name that resolved to a public address at registration now points at 127.0.0.1: refused, nothing reaches it', async () => {
    const port = new URL(receiver.url).port;
    const sender = createHttpSender({ allowLoopback: false, lookup: lookupTo('127.0.0.1') });
    const outcome = await sender.send({ url: `https://hooks.partner.test:${port}/webhook`, headers: {}, body: '{}' });
    expect(outcome).toMatchObject({ ok: false });
    expect(!outcome.ok && outcome.error).toMatch(/^refused: hooks.partner.test resolves to 127.0.0.1/);
    for (const address of ['10.0.0.8', '169.254.169.254', '100.100.100.200', '0.0.0.0']) {
      const blocked = await createHttpSender({ allowLoopback: false, lookup: lookupTo(address) }).send({
        url: 'https://hooks.partner.test/webhook',
        headers: {},
        body: '{}',
      });
      expect(blocked.ok, address).toBe(false);
      expect(!blocked.ok && blocked.error, address).toMatch(/^refused: /);
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('end to end: the dispatcher of a server without --dev records the refused attempt and retries later; the receiver gets nothing', async () => {
    const port = new URL(receiver.url).port;
    const t = makeV1App(db, {
      config: { dev: false },
      resolve: async () => [{ address: PUBLIC, family: 4 }],
      sender: createHttpSender({ allowLoopback: false, lookup: lookupTo('127.0.0.1') }),
    });
    const { founder, link } = await founderWithLink(t);
    const partner = await createPartner(t);
    const created = await partner.call('POST', '/api/v1/webhook-endpoints', {
      url: `https://rebind.partner.test:${port}/webhook`,
    });
    expect(created.status).toBe(201);
    await follow(partner, link.token);
    await founder.call('PATCH', '/api/founder/organisation', { readiness_score: 74 });
    const report = await t.tick();
    expect(report).toMatchObject({ delivered: 0, failed: 1 });
    const message = await db.query('SELECT status, attempts, last_error FROM webhook_messages WHERE partner_id = $1', [
      partner.id,
    ]);
    expect(message.rows[0]).toMatchObject({ status: 'pending', attempts: 1 });
    expect(JSON.stringify(message.rows[0])).toMatch(/refused: /);
    expect(receiver.received).toHaveLength(0);
  });

  it('plain http is refused without --dev, even to a public name', async () => {
    const outcome = await createHttpSender({ allowLoopback: false, lookup: lookupTo(PUBLIC) }).send({
      url: 'http://hooks.partner.test/webhook',
      headers: {},
      body: '{}',
    });
    expect(outcome).toMatchObject({ ok: false, status: null });
    expect(!outcome.ok && outcome.error).toMatch(/^refused: the URL must use https/);
  });

  it('follows no redirect: a 302 is a failed attempt and its target hears nothing', async () => {
    const target = await startReceiver();
    onTestFinished(() => target.close());
    receiver.respond = () => ({ status: 302, headers: { location: target.url } });
    onTestFinished(() => {
      receiver.respond = () => ({ status: 204 });
      receiver.received.length = 0;
    });
    const outcome = await createHttpSender({ allowLoopback: true }).send({ url: receiver.url, headers: {}, body: '{}' });
    expect(outcome).toEqual({ ok: false, status: 302, error: 'redirect (302) not followed' });
    expect(target.received).toHaveLength(0);
  });

  it('bounds the wait for a connection and for the answer, and reads at most the size cap', async () => {
    const neverResolves = ((_h: string, _o: unknown, _cb: unknown) => undefined) as unknown as LookupFunction;
    const slowConnect = await createHttpSender({ allowLoopback: false, lookup: neverResolves, connectTimeoutMs: 100 }).send({
      url: 'https://hooks.partner.test/',
      headers: {},
      body: '{}',
    });
    expect(slowConnect).toMatchObject({ ok: false, error: 'connect timeout after 100 ms' });

    const sockets = new Set<Socket>();
    const silent = http.createServer(() => undefined); // never answers
    silent.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    onTestFinished(() => {
      for (const socket of sockets) socket.destroy();
      silent.close();
    });
    const started = Date.now();
    const slow = await createHttpSender({ allowLoopback: true, responseTimeoutMs: 200 }).send({
      url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`,
      headers: {},
      body: '{}',
    });
    expect(slow).toMatchObject({ ok: false, error: 'no complete response within 200 ms' });
    expect(Date.now() - started).toBeLessThan(2_000);

    const huge = http.createServer((_request, response) => {
      response.writeHead(500);
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const write = () => {
        while (response.write(chunk)) {
          /* keep writing until the socket pushes back */
        }
      };
      response.on('drain', write);
      write();
    });
    await new Promise<void>((done) => huge.listen(0, '127.0.0.1', done));
    onTestFinished(() => {
      huge.closeAllConnections();
      huge.close();
    });
    const capped = await createHttpSender({ allowLoopback: true, maxResponseBytes: 1024 }).send({
      url: `http://127.0.0.1:${(huge.address() as AddressInfo).port}/`,
      headers: {},
      body: '{}',
    });
    expect(capped).toEqual({ ok: false, status: 500, error: 'answered 500 (response cut at the size cap)' });
  });
});

describe('one policy decides registration and delivery', () => {
  const SPECIAL = [
    '127.0.0.1',
    '127.1.2.3',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:127.0.0.1',
    '0.0.0.0',
    '::',
    '169.254.169.254',
    '100.100.100.200',
    'fd00:ec2::254',
    'fe80::1',
    '10.0.0.1',
    '::ffff:10.0.0.1',
    PUBLIC,
    '::ffff:93.184.216.34',
    '2606:4700:4700::1111',
  ];
  const address = fc.oneof(
    fc.constantFrom(...SPECIAL),
    fc.ipV4(),
    fc.ipV6(),
    fc.ipV4().map((v4) => `::ffff:${v4}`),
  );
  const lookupVerdict = (lookup: LookupFunction) =>
    new Promise<boolean>((resolve) => {
      lookup('hooks.partner.test', { all: true }, (error) => resolve(error === null));
    });

  it('property: for any address, scheme and mode, the registration check and the sender’s connect-time check agree', async () => {
    await fc.assert(
      fc.asyncProperty(address, fc.constantFrom('http:', 'https:'), fc.boolean(), async (ip, protocol, dev) => {
        const policy = { allowLoopback: dev };
        // Behind a name: registration resolves it, the sender's lookup is guarded at connect time.
        const named = `${protocol}//hooks.partner.test:9/webhook`;
        const registered = await checkEndpointUrl(named, { ...policy, resolve: async () => [{ address: ip, family: isIP(ip) }] });
        const urlPasses = checkUrl(named, policy).ok;
        const connects = await lookupVerdict(guardedLookup(protocol, policy, lookupTo(ip)));
        expect(registered.ok, `${named} → ${ip}, dev ${dev}`).toBe(urlPasses && connects);
        // Written as a literal: the same URL check at registration and before sending.
        const literal = `${protocol}//${isIP(ip) === 6 ? `[${ip}]` : ip}:9/webhook`;
        const registeredLiteral = await checkEndpointUrl(literal, policy);
        expect(registeredLiteral.ok, literal).toBe(checkUrl(literal, policy).ok);
        // The address as the URL parser reads it (`[::0.0.0.1]` is `[::1]`): what the sender connects to.
        const parsed = new URL(literal).hostname.replace(/^\[|\]$/g, '');
        expect(registeredLiteral.ok, literal).toBe(urlPasses && addressAllowed(parsed, protocol, policy));
      }),
      { numRuns: 500 },
    );
  });

  it('with --dev, http://[::ffff:127.0.0.1]:… is refused at registration and by the sender; http://127.0.0.1:… is taken and delivered', async () => {
    const port = new URL(receiver.url).port;
    const t = makeV1App(db, { config: { dev: true } });
    const partner = await createPartner(t);
    const mapped = `http://[::ffff:127.0.0.1]:${port}/webhook`;
    const refused = await expectError(
      await partner.call('POST', '/api/v1/webhook-endpoints', { url: mapped }),
      400,
      'VALIDATION_ERROR',
    );
    expect(refused.error).toContain('::ffff:7f00:1');
    const sender = createHttpSender({ allowLoopback: true });
    onTestFinished(() => sender.close());
    const outcome = await sender.send({ url: mapped, headers: {}, body: '{}' });
    expect(!outcome.ok && outcome.error).toMatch(/^refused: /);
    expect(receiver.received).toHaveLength(0);

    expect((await partner.call('POST', '/api/v1/webhook-endpoints', { url: receiver.url })).status).toBe(201);
    expect(await sender.send({ url: receiver.url, headers: {}, body: '{}' })).toEqual({ ok: true, status: 204 });
    expect(receiver.received).toHaveLength(1);
    receiver.received.length = 0;
  });
});
