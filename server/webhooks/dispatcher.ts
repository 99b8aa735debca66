/**
 * The outbox worker. Each tick: end follows whose link expired (telling their partners), pack digests
 * whose period ended, then deliver what is due (`next_attempt_at` on the server's clock).
 *
 * Several instances may share one PostgreSQL: a message is claimed with `FOR UPDATE SKIP LOCKED` and a
 * lease (`lease_token`, `lease_expires_at` on the database's own clock, never the dev clock), sent
 * outside any transaction, and its result is written only by the holder of the lease. So in normal
 * operation each message is sent once; after a crash mid-send the lease runs out and another worker
 * sends it again (at least once: receivers deduplicate by `webhook-id`).
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import type { Logger } from '../platform/app-env';
import type { Clock } from '../platform/clock';
import type { Database } from '../platform/db/driver';
import { DISABLE_AFTER_FAILING_MS, MAX_ATTEMPTS, retryDelayMs } from './retry';
import type { DeliveryOutcome, WebhookSender } from './sender';

/** Work done before each delivery pass (the partners domain's: follows whose link expired, digests due). */
export interface Chores {
  /** Follows ended because their link expired; returns the events written. */
  expire(now: Date): Promise<number>;
  /** Held events packed into digests whose period ended; returns the digests queued. */
  packDigests(now: Date): Promise<number>;
}

export interface DispatcherOptions {
  db: Database;
  clock: Clock;
  sender: WebhookSender;
  chores?: Chores;
  logger?: Logger;
  /** Jitter source in [0, 1) (tests fix it). */
  random?: () => number;
  /** Real time, for `webhook-timestamp`: receivers compare it with their own clocks (default: Date.now). */
  wallClock?: () => Date;
  /** How often the outbox is looked at without a nudge. */
  pollIntervalMs?: number;
  /** Messages claimed at once. */
  batchSize?: number;
  /** Deliveries in flight at once. */
  concurrency?: number;
  /** How long a claimed message stays another worker's to leave alone; longer than one send can take. */
  leaseMs?: number;
}

export interface TickReport {
  expired: number;
  digests: number;
  delivered: number;
  failed: number;
}

const claimedRow = z.object({
  id: z.string(),
  body: z.string(),
  attempts: z.number(),
  created_at: z.date(),
  endpoint_id: z.string(),
  url: z.string(),
  secret: z.string(),
});
type Claimed = z.infer<typeof claimedRow>;

const failedRow = z.object({ attempts: z.number(), status: z.string() });
const endpointRow = z.object({ failing_since: z.date().nullable() });

export const DEFAULT_POLL_INTERVAL_MS = 500;
export const DEFAULT_LEASE_MS = 60_000;
const USER_AGENT = 'ComplianceLens-Webhooks/1.0 (+Standard Webhooks)';

export class WebhookDispatcher {
  private readonly db: Database;
  private readonly clock: Clock;
  private readonly sender: WebhookSender;
  private readonly chores?: Chores;
  private readonly logger?: Logger;
  private readonly random: () => number;
  private readonly wallClock: () => Date;
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly signers = new Map<string, Webhook>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private started = false;

  constructor(options: DispatcherOptions) {
    this.db = options.db;
    this.clock = options.clock;
    this.sender = options.sender;
    this.chores = options.chores;
    this.logger = options.logger;
    this.random = options.random ?? Math.random;
    this.wallClock = options.wallClock ?? (() => new Date());
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.batchSize = options.batchSize ?? 100;
    this.concurrency = options.concurrency ?? 16;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /** Polls the outbox until `stop()`. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  /** Stops polling and waits for the tick in progress (its sends included). */
  async stop(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Look at the outbox now (a change was recorded, or the dev clock moved). */
  nudge(): void {
    if (!this.started) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.tick()
        .then(
          () => undefined,
          (error: unknown) => this.logger?.error('webhook dispatcher tick failed', error),
        )
        .finally(() => {
          this.running = null;
          if (!this.started) return;
          const soon = this.again;
          this.again = false;
          this.schedule(soon ? 0 : this.pollIntervalMs);
        });
    }, delayMs);
  }

  /** One pass: expiries, digests, then deliveries until nothing due is left (tests call it directly). */
  async tick(): Promise<TickReport> {
    const report: TickReport = { expired: 0, digests: 0, delivered: 0, failed: 0 };
    const now = this.clock.now();
    report.expired = (await this.chores?.expire(now)) ?? 0;
    report.digests = (await this.chores?.packDigests(now)) ?? 0;
    for (;;) {
      const claimed = await this.claim();
      if (claimed.messages.length === 0) break;
      await this.deliverAll(claimed.messages, claimed.lease, report);
      if (claimed.messages.length < this.batchSize) break;
    }
    return report;
  }

  private async claim(): Promise<{ messages: Claimed[]; lease: string }> {
    const lease = randomUUID();
    const result = await this.db.query(
      `UPDATE webhook_messages m SET lease_token = $1, lease_expires_at = clock_timestamp() + make_interval(secs => $2)
       FROM webhook_endpoints e
       WHERE e.id = m.endpoint_id AND m.id IN (
         SELECT m2.id FROM webhook_messages m2 JOIN webhook_endpoints e2 ON e2.id = m2.endpoint_id
         WHERE m2.status = 'pending' AND m2.next_attempt_at <= $3::timestamptz AND e2.status = 'enabled'
           AND (m2.lease_expires_at IS NULL OR m2.lease_expires_at < clock_timestamp())
         ORDER BY m2.next_attempt_at, m2.seq LIMIT $4
         FOR UPDATE OF m2 SKIP LOCKED)
       RETURNING m.id, m.body, m.attempts, m.created_at, m.seq, e.id AS endpoint_id, e.url, e.secret`,
      [lease, this.leaseMs / 1000, this.clock.now().toISOString(), this.batchSize],
    );
    // RETURNING has no order: send in the order they were written.
    const rows = [...result.rows].sort((a, b) => seqOf(a) - seqOf(b));
    return { messages: rows.map((row) => claimedRow.parse(row)), lease };
  }

  private async deliverAll(messages: readonly Claimed[], lease: string, report: TickReport): Promise<void> {
    let next = 0;
    const delivered: { message: Claimed; status: number }[] = [];
    const worker = async () => {
      while (next < messages.length) {
        const message = messages[next++];
        if (message === undefined) break;
        const outcome = await this.send(message);
        if (outcome.ok) {
          delivered.push({ message, status: outcome.status });
          report.delivered += 1;
          continue;
        }
        report.failed += 1;
        await this.recordFailure(message, lease, outcome).catch((error: unknown) => {
          this.logger?.error(`webhook ${message.id}: could not record the attempt`, error);
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, messages.length) }, worker));
    await this.recordDeliveries(delivered, lease).catch((error: unknown) => {
      // Still leased: after the lease runs out they are sent again (at least once).
      this.logger?.error('webhooks: could not record deliveries', error);
    });
  }

  /** Every success of a batch in two statements (per-message updates would cost more than the sends). */
  private async recordDeliveries(delivered: readonly { message: Claimed; status: number }[], lease: string): Promise<void> {
    if (delivered.length === 0) return;
    const now = this.clock.now().toISOString();
    await this.db.query(
      `UPDATE webhook_messages m SET status = 'delivered', attempts = m.attempts + 1, delivered_at = $2::timestamptz,
         last_attempt_at = $2::timestamptz, last_status = d.status, last_error = NULL, lease_token = NULL, lease_expires_at = NULL
       FROM jsonb_to_recordset($3::jsonb) AS d(id text, status int)
       WHERE m.id = d.id AND m.lease_token = $1`,
      [lease, now, JSON.stringify(delivered.map(({ message, status }) => ({ id: message.id, status })))],
    );
    await this.db.query(
      `UPDATE webhook_endpoints SET failure_streak = 0, failing_since = NULL, last_success_at = $2::timestamptz
       WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb))`,
      [JSON.stringify([...new Set(delivered.map(({ message }) => message.endpoint_id))]), now],
    );
  }

  private signer(secret: string): Webhook {
    let signer = this.signers.get(secret);
    if (!signer) this.signers.set(secret, (signer = new Webhook(secret)));
    return signer;
  }

  /** Signs (Standard Webhooks: id, whole-second timestamp, body) and sends; never throws. */
  private async send(message: Claimed): Promise<DeliveryOutcome> {
    try {
      const timestamp = this.wallClock();
      const headers = {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': message.id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': this.signer(message.secret).sign(message.id, timestamp, message.body),
      };
      return await this.sender.send({ url: message.url, headers, body: message.body });
    } catch (error) {
      return { ok: false, status: null, error: error instanceof Error ? error.message : String(error) };
    }
  }

  private async recordFailure(message: Claimed, lease: string, outcome: DeliveryOutcome & { ok: false }): Promise<void> {
    const now = this.clock.now();
    const attempts = message.attempts + 1;
    const nextAttempt = new Date(now.getTime() + retryDelayMs(attempts, this.random));
    const failed = await this.db.query(
      `UPDATE webhook_messages SET attempts = attempts + 1, last_attempt_at = $3::timestamptz, last_status = $4,
         last_error = $5, status = CASE WHEN attempts + 1 >= $6 THEN 'failed' ELSE 'pending' END,
         next_attempt_at = $7::timestamptz, lease_token = NULL, lease_expires_at = NULL
       WHERE id = $1 AND lease_token = $2 RETURNING attempts, status`,
      [
        message.id,
        lease,
        now.toISOString(),
        outcome.status,
        outcome.error.slice(0, 500),
        MAX_ATTEMPTS,
        nextAttempt.toISOString(),
      ],
    );
    const row = failed.rows[0];
    if (row === undefined) return; // the lease ran out and another worker owns the message now
    const exhausted = failedRow.parse(row).status === 'failed';
    const endpoint = await this.db.query(
      `UPDATE webhook_endpoints SET failure_streak = failure_streak + 1, failing_since = COALESCE(failing_since, $2::timestamptz),
         last_failure_at = $2::timestamptz, last_error = $3
       WHERE id = $1 RETURNING failing_since`,
      [message.endpoint_id, now.toISOString(), outcome.error.slice(0, 500)],
    );
    const failingSince = endpoint.rows[0] === undefined ? null : endpointRow.parse(endpoint.rows[0]).failing_since;
    if (failingSince === null) return;
    const failingFor = now.getTime() - failingSince.getTime();
    // Disabled when it has not taken a single delivery for three days, or when a message gave up
    // after failing every attempt since it was written (no success in between).
    const reason =
      failingFor >= DISABLE_AFTER_FAILING_MS
        ? 'no successful delivery for 72 hours'
        : exhausted && failingSince.getTime() <= message.created_at.getTime()
          ? `a message failed all ${MAX_ATTEMPTS} attempts`
          : null;
    if (reason !== null) {
      await this.db.query(
        `UPDATE webhook_endpoints SET status = 'disabled', disabled_at = $2::timestamptz, disabled_reason = $3
         WHERE id = $1 AND status = 'enabled'`,
        [message.endpoint_id, now.toISOString(), reason],
      );
    }
  }
}

function seqOf(row: unknown): number {
  const parsed = z.object({ seq: z.coerce.number() }).safeParse(row);
  return parsed.success ? parsed.data.seq : 0;
}
